#!/usr/bin/env bash
# Call 7. The GPU tests of the generated header on the tree after the review fixes (the
# run-time's loading of a cubin's four kernels rewritten): GpuBlas.* and GpuHeader.*, the
# three tests side by side. Carry [".device"] (devbin.tgz).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
{ date -u; echo "tree $(cat .device/COMMIT)"; nvidia-smi --query-gpu=name,driver_version --format=csv; } | tee "$OUT/gpu.txt"
T0=$(date +%s)
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
for t in GpuBlas.EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn \
         GpuHeader.EveryPathOfAnEmittedHeaderMatchesCublas; do
  ( timeout 300 .device/sgemm_tune_gpu_tests --gtest_filter="$t" >"$OUT/$t.log" 2>&1
    echo "$t exit $? after $(($(date +%s) - T0)) s" ) &
done
wait
grep -hE "^\[  (PASSED|FAILED) |OK \]|FAILED  \]" "$OUT"/Gpu*.log
