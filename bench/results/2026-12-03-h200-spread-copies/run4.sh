#!/usr/bin/env bash
# Call 4. The GPU pipeline tests at d898bd7 (binaries built at 3ff6e66; a companion that fails to compile fails only
# its shapes: the rows a run records and the ones it measures are now split in tune.cpp).
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
cat .device/COMMIT
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune
SGEMM_TUNE_SOURCE_DIR=$PWD timeout 400 .device/sgemm_tune_gpu_tests --gtest_filter='GpuPipeline.*' > "$OUT/gpu_pipeline.log" 2>&1
echo "exit $?"
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) " "$OUT/gpu_pipeline.log" | tail -30
gzip "$OUT/gpu_pipeline.log"
