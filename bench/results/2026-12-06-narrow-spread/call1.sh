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
# Under $OUT: gpu.txt, rounds.tgz, GpuBlas.log.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start
R=$OUT/rounds
mkdir -p "$R"
run() {  # VERSION NAME ARGS...
  local v=$1 name=$2; shift 2
  local log=$R/$v-$name.txt
  timeout 60 ".device/bench_shapes-$v" --graphs --dispatch predicted "$@" >"$log" 2>&1
  echo "$v $name exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$G"
}
run base twins1 --problems bench/experiments/aligned_twins.txt
run new twins1 --problems bench/experiments/aligned_twins.txt
run new twins2 --problems bench/experiments/aligned_twins.txt
run base twins2 --problems bench/experiments/aligned_twins.txt
run base seed1 --seed 1 --count 48
run new seed1 --seed 1 --count 48
run new seed2 --seed 2 --count 48
run base seed2 --seed 2 --count 48
tar czf "$OUT/rounds.tgz" -C "$OUT" rounds && rm -rf "$R"
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
timeout 240 .device/sgemm_tune_gpu_tests --gtest_filter=GpuBlas.EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas \
  >"$OUT/GpuBlas.log" 2>&1
echo "GpuBlas.EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas exit $? after $(($(date +%s) - T0)) s: $(grep -E '^\[  (PASSED|FAILED) ' "$OUT/GpuBlas.log" | tr '\n' ' ')" | tee -a "$G"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
