#!/usr/bin/env bash
# Call 1. The edge kernel as a kernel per body (9993018): the GPU tests of the generated
# header, GpuBlas.* (every layout, op pair, padding, offset and edge remainder through an
# emitted header, against cuBLAS; a tuned BLAS product on the kernel it was timed on) and
# GpuHeader.* (every path of an emitted header), the three tests side by side (they check
# results, not speed); then bench/experiments/edge_bodies on two tiles of the workload
# tuning, the plain body's kernel (edge4, now with the check that it was launched for that
# body) against the four-body kernel of 73692d1 (v_edge4, EB_VARIANT_DIR) and the plain
# body with no check (edge1). Carry [".device"]: devbin.tgz (tools/pack_for_device.sh,
# packed), eb.tgz and ebv.tgz (cubins compiled on the CPU machine), edge_bodies.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
T0=$(date +%s)
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
for t in GpuBlas.EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn \
         GpuHeader.EveryPathOfAnEmittedHeaderMatchesCublas; do
  ( timeout 420 .device/sgemm_tune_gpu_tests --gtest_filter="$t" >"$OUT/$t.log" 2>&1
    echo "$t exit $? after $(($(date +%s) - T0)) s" ) &
done
wait
grep -hE "^\[  (PASSED|FAILED) |OK \]|FAILED  \]" "$OUT"/Gpu*.log
tar xzf .device/eb.tgz -C .device && tar xzf .device/ebv.tgz -C .device
T1=$(date +%s)
EB_VARIANT_DIR=.device/ebv EB_ROUNDS=9 \
EB_SHAPES=1000x1000x1000,1024x1024x1024,1024x1024x1000,512x512x512,1164x1104x440,3000x3000x3000,4096x4096x4100,4096x4096x4096 \
  timeout 150 .device/edge_bodies run .device/eb $(cat .device/eb/tiles.txt) >"$OUT/edge_bodies.txt" 2>&1
echo "edge_bodies exit $? after $(($(date +%s) - T1)) s; WRONG lines: $(grep -c WRONG "$OUT/edge_bodies.txt")"
python3 bench/results/2026-12-04-h200-edge-bodies/summary.py "$OUT/edge_bodies.txt" | tee "$OUT/summary.txt"
