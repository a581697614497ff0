#!/usr/bin/env bash
# With too little device time left for the experiment (session 36: 434 s after refused
# starts, 254 s after one more), the GPU tests of the tuning pipeline alone, which changed
# since their last GPU run: a tuning compiles only the edge bodies its BLAS shapes run (session 34); the staged
# search times BLAS shapes on its finalists only, taking their probes again (session 35:
# GpuPipeline.StagedSearchTimesBlasShapesOnTheFinalistsOnly and
# GpuPipeline.AProbeThatFailedKeepsItsReasonAtTheShapesItWaitedFor are new).
# Carry [".device"]: devbin.tgz (sgemm-tune, sgemm_tune_gpu_tests).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
T0=$(date +%s)
G=$OUT/gpu.txt
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$G"
L=$OUT/logs; mkdir -p "$L"
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
# The tests of what sessions 34 and 35 changed, each in its own process, side by side;
# TESTS=all runs GpuPipeline.* in three shards instead.
if [ "${TESTS:-changed}" = changed ]; then
  for t in GpuPipeline.StagedSearchTimesBlasShapesOnTheFinalistsOnly \
           GpuPipeline.AProbeThatFailedKeepsItsReasonAtTheShapesItWaitedFor \
           GpuPipeline.BlasShapesAreVerifiedAndRecordedWithTheirOps \
           GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn; do
    ( timeout 150 .device/sgemm_tune_gpu_tests --gtest_filter="$t" >"$L/$t.log" 2>&1
      echo "$t exit $? after $(($(date +%s) - T0)) s" | tee -a "$G" ) &
  done
else
  for shard in 0 1 2; do
    ( GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$shard timeout 200 .device/sgemm_tune_gpu_tests \
        --gtest_filter='GpuPipeline.*' >"$L/GpuPipeline-$shard.log" 2>&1
      echo "GpuPipeline shard $shard exit $? after $(($(date +%s) - T0)) s" | tee -a "$G" ) &
  done
fi
wait
grep -hE "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]|^\[       OK \]" "$L"/Gpu*.log | tee -a "$G"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
