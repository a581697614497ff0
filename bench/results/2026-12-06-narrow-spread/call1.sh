#!/usr/bin/env bash
# Call 1 (prepared in session 43, not run: the session's device time ran out). First apply
# bench/experiments/narrow_spread_copies_v2.patch to a tree whose template is f4cd0f3's
# (git apply), build there, and pack as below. The change: the narrow bodies' 4-byte copies
# spread, a thread's four floats of B and of a transposed A a quarter of the tile's width
# apart, so that each copy instruction of a warp writes consecutive banks (session 13's
# bench/experiments/narrow_spread_copies.patch, measured then back to back, host-bound).
# Against the same kernels with a thread's four floats side by side (the base, f4cd0f3).
# One database (W3a's, ../2026-12-06-small-threads-graphs/call3), one header from each
# template compiled from source by nvcc, both programs built on the CPU machine
# (tools/bench_shapes_paired.sh with BUILD_ONLY=1 CUDA_ARCHITECTURES=90) and carried in
# .device/devbin.tgz as bench_shapes-base and bench_shapes-new, with the patched tree's
# sgemm-tune and sgemm_tune_gpu_tests. As graphs, predicted dispatch, alternating base and
# new: bench/experiments/aligned_twins.txt twice, then the random sets of seeds 1 and 2.
# Then GpuBlas.EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas on the new template.
# The steps are ../2026-12-06-narrow-interior/call1.sh's, which this runs: the same rounds
# of the same two carried programs, whatever their kernels. Under $OUT: gpu.txt,
# rounds.tgz, GpuBlas.log.
exec bash "$(dirname "$0")/../2026-12-06-narrow-interior/call1.sh"
