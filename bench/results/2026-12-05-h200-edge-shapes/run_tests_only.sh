#!/usr/bin/env bash
# With too little device time left for the experiment (session 36: 434 s after refused
# starts, 254 s after one more), the GPU tests of the tuning pipeline alone, which changed
# since their last GPU run: a tuning compiles only the edge bodies its BLAS shapes run
# (session 34); the staged search times BLAS shapes on its finalists only, taking their
# probes again (session 35: GpuPipeline.StagedSearchTimesBlasShapesOnTheFinalistsOnly and
# GpuPipeline.AProbeThatFailedKeepsItsReasonAtTheShapesItWaitedFor are new).
# Carry [".device"]: devbin.tgz (sgemm-tune, sgemm_tune_gpu_tests).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L"
# The tests of what sessions 34 and 35 changed, each in its own process, side by side;
# TESTS=all runs GpuPipeline.* in three shards and the tuned-BLAS-product test instead.
if [ "${TESTS:-changed}" = changed ]; then
  export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
  for t in GpuPipeline.StagedSearchTimesBlasShapesOnTheFinalistsOnly \
           GpuPipeline.AProbeThatFailedKeepsItsReasonAtTheShapesItWaitedFor \
           GpuPipeline.BlasShapesAreVerifiedAndRecordedWithTheirOps \
           GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn; do
    ( timeout 150 .device/sgemm_tune_gpu_tests --gtest_filter="$t" >"$L/$t.log" 2>&1
      echo "$t exit $? after $(($(date +%s) - T0)) s" | tee -a "$G" ) &
  done
  wait
  grep -hE "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]|^\[       OK \]" "$L"/Gpu*.log | tee -a "$G"
else
  pipeline_gpu_tests 200
fi
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
