#!/usr/bin/env bash
# Call 2 (issue 11). The edge kernel's epilogue and scale pass with C not 16-byte aligned:
# 16-byte stores and atomic adds realigned across lanes (store_run_realigned), against the
# base (c2047ba, .device/base) through headers of one database (call1's), paired: the GPU
# tests first (GpuBlas, GpuHeader: every layout, op, padding, offset and edge shape through
# a header), then the random set of seed 1 and call1's problem list, two rounds each, base
# and new alternating, measured dispatch.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
cat .device/COMMIT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv | tee "$OUT/gpu.txt"
W=/tmp/w; mkdir -p $W
zcat bench/results/2026-12-02-h200-measured-dispatch/call6/workload.db.gz > $W/workload.db
start=$(date +%s)
SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD timeout 300 .device/sgemm_tune_gpu_tests \
  --gtest_filter='GpuBlas.*:GpuHeader.*' > $OUT/gpu_tests.log 2>&1
echo "gpu tests exit $? $(( $(date +%s) - start )) s"; grep -E "^\[ +(OK|FAILED|PASSED) +\]" $OUT/gpu_tests.log | tail -6
start=$(date +%s)
OUT=$OUT/random BASE=.device/base DB=$W/workload.db ROUNDS=2 SEEDS=1 DISPATCH=measured timeout 330 \
  tools/bench_shapes_paired.sh > $OUT/paired-random.txt 2>&1
echo "paired random exit $? $(( $(date +%s) - start )) s"
start=$(date +%s)
OUT=$OUT/listed BASE=.device/base DB=$W/workload.db ROUNDS=2 SEEDS=1 DISPATCH=measured REUSE_BUILD=1 \
  PROBLEMS=bench/experiments/narrow_factors.txt timeout 150 tools/bench_shapes_paired.sh > $OUT/paired-listed.txt 2>&1
echo "paired listed exit $? $(( $(date +%s) - start )) s"
cd $OUT && tar czf call2.tgz random listed gpu_tests.log paired-random.txt paired-listed.txt && rm -rf random listed gpu_tests.log
cat paired-random.txt | grep -v "^  seed\|^  random\b" | head -40; grep -A12 "^all rounds" paired-listed.txt
