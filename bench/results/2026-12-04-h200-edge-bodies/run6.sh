#!/usr/bin/env bash
# Call 6. The GPU tests of the generated header on call 4's template: GpuBlas.* (every
# layout, op pair, padding, offset and edge remainder through an emitted header, against
# cuBLAS) and GpuHeader.* (every path of an emitted header). Carry [".device"]: the tuner
# and the GPU tests built on this tree (tools/pack_for_device.sh), packed as devbin.tgz.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
T0=$(date +%s)
cat .device/COMMIT
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
timeout 330 .device/sgemm_tune_gpu_tests --gtest_filter='GpuBlas.*' >"$OUT/gpu_blas.log" 2>&1
echo "GpuBlas exit $? after $(($(date +%s) - T0)) s"
timeout 200 .device/sgemm_tune_gpu_tests --gtest_filter='GpuHeader.*' >"$OUT/gpu_header.log" 2>&1
echo "GpuHeader exit $? after $(($(date +%s) - T0)) s"
grep -hE "^\[  (PASSED|FAILED) |OK \]|FAILED  \]" "$OUT/gpu_blas.log" "$OUT/gpu_header.log"
