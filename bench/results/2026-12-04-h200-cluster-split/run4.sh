#!/usr/bin/env bash
# Call 4. The GPU tests after the review's fixes (kernels compiled for an older GPU never get
# the cluster bit, a refused cluster launch falls back to the scale pass, a kernel launched
# with the bit but without clusters traps, `sgemm_blas_check edges` counts a split's launches
# in a graph): GpuBlas.* and GpuHeader.* side by side. Carry [".device"] (devbin.tgz).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
T0=$(date +%s)
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
mkdir -p "$OUT/tests"
for t in GpuBlas.EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn \
         GpuHeader.EveryPathOfAnEmittedHeaderMatchesCublas; do
  ( timeout 280 .device/sgemm_tune_gpu_tests --gtest_filter="$t" >"$OUT/tests/$t.log" 2>&1
    echo "$t exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt" ) &
done
wait
grep -hE "^\[  (PASSED|FAILED) |FAILED  \]|^cluster split" "$OUT"/tests/*.log | tee -a "$OUT/gpu.txt"
grep -h "WRONG\|Failure" -A3 "$OUT"/tests/*.log | head -20 | cut -c1-220 | tee -a "$OUT/gpu.txt"
tar czf "$OUT/logs.tgz" -C "$OUT" tests && rm -rf "$OUT/tests"
