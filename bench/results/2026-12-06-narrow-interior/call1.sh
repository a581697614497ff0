#!/usr/bin/env bash
# Call 1 (session 43): the edge kernel's narrow bodies copying the stages inside K unguarded,
# 4 bytes at a time (this tree) against the same kernels guarded per element everywhere
# (the base, 0eca7e7). One database (W3a's, ../2026-12-06-small-threads-graphs/call3), one
# header from each template compiled from source by nvcc, both programs built on the CPU
# machine (tools/bench_shapes_paired.sh with BUILD_ONLY=1 CUDA_ARCHITECTURES=90) and
# carried in .device/devbin.tgz as bench_shapes-base and bench_shapes-new, with the new
# tree's sgemm_tune_gpu_tests. As graphs, predicted dispatch, alternating base and new:
# bench/experiments/aligned_twins.txt twice, then the random sets of seeds 1 and 2. Then
# GpuBlas.EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas (every layout, op pair,
# alignment and edge shape, leading dimensions past the int offsets) on the new template.
# Under $OUT: gpu.txt, rounds.tgz, GpuBlas.log.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start
R=$OUT/rounds
mkdir -p "$R"
graph_round base twins1 --problems bench/experiments/aligned_twins.txt
graph_round new twins1 --problems bench/experiments/aligned_twins.txt
graph_round new twins2 --problems bench/experiments/aligned_twins.txt
graph_round base twins2 --problems bench/experiments/aligned_twins.txt
graph_round base seed1 --seed 1 --count 48
graph_round new seed1 --seed 1 --count 48
graph_round new seed2 --seed 2 --count 48
graph_round base seed2 --seed 2 --count 48
tar czf "$OUT/rounds.tgz" -C "$OUT" rounds && rm -rf "$R"
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
timeout 240 .device/sgemm_tune_gpu_tests --gtest_filter=GpuBlas.EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas \
  >"$OUT/GpuBlas.log" 2>&1
echo "GpuBlas.EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas exit $? after $(($(date +%s) - T0)) s: $(grep -E '^\[  (PASSED|FAILED) ' "$OUT/GpuBlas.log" | tr '\n' ' ')" | tee -a "$G"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
