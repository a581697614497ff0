#!/usr/bin/env bash
# Call 2 (issue 11): the GPU tests of the BLAS entry point and the generated header at this
# session's run-time change (the transposed B packed alone, GpuBlas's edges mode running it
# entry by entry; the measured dispatch's extra candidates), binaries built on the CPU
# machine: tools/pack_for_device.sh && gzip -9 .device/sgemm-tune .device/sgemm_tune_gpu_tests
# Carry [".device"]: OUT=$OUT bash <this file>
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
T0=$(date +%s)
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
for b in sgemm-tune sgemm_tune_gpu_tests; do
  gunzip -c .device/$b.gz >/tmp/$b && chmod +x /tmp/$b
done
export SGEMM_TUNE_BINARY=/tmp/sgemm-tune
# Each test as long as the call leaves it (570 s in all).
# TESTS: the tests to run, in order (default both GpuBlas tests, then GpuHeader.*).
for t in ${TESTS:-GpuBlas.EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas \
                  GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn GpuHeader.*}; do
  left=$((570 - ($(date +%s) - T0)))
  [[ $left -gt 30 ]] || { echo "$t: not run, ${left} s left"; continue; }
  log=$OUT/$(echo "$t" | tr -c 'A-Za-z0-9\n' '_' | cut -c1-40).log
  timeout "$left" /tmp/sgemm_tune_gpu_tests --gtest_filter="$t" >"$log" 2>&1
  echo "$t exit $? after $(($(date +%s) - T0)) s"
  grep -E "^\[  (PASSED|FAILED) |OK \]|FAILED  \]" "$log" | tail -n 3
done
