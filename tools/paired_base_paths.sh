# The paths of a source tree that tools/bench_shapes_paired.sh builds a version from: the
# kernels-only build (CMakeLists.txt, cmake/), the kernels, and the programs it builds with
# them (tools/bench_shapes includes tools/example's CUDA checks). Sourced by
# tools/pack_for_device.sh, which archives them for a base commit, and by
# bench_shapes_paired.sh, which checks a base has them before building: one list for both.
# shellcheck disable=SC2034  # read by the scripts that source this file
paired_base_paths=(CMakeLists.txt cmake kernel_templates tools/bench_shapes tools/example)
