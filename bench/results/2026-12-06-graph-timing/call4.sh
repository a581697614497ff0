#!/usr/bin/env bash
# Call 4 (session 41): the GPU tests of the tuning pipeline whose paths the graph-timing
# change touched (the worker's messages, the timeout, the database's fingerprint and
# resume), at the final tree, in two groups side by side, each stopped after 150 s; and
# GpuTimer.* again. Carry [".device"]: devbin.tgz with sgemm-tune and sgemm_tune_gpu_tests.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start
L=$OUT/logs
mkdir -p "$L"
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
groups=("GpuPipeline.TunesVerifiesAndRecordsEveryCandidate:GpuPipeline.KilledRunResumesWithoutMeasuringAgain:GpuTimer.*"
        "GpuPipeline.IsolatedMeasurementAgreesWithInProcess:GpuPipeline.HangingCandidatesAreStoppedByTheTimeout:GpuPipeline.FaultingCandidatesAreRecordedAndTheRunGoesOn")
for i in 0 1; do
  ( timeout 150 .device/sgemm_tune_gpu_tests --gtest_filter="${groups[$i]}" >"$L/group-$i.log" 2>&1
    echo "group $i exit $? after $(($(date +%s) - T0)) s" | tee -a "$G" ) &
done
wait
grep -hE "^\[ +(OK|FAILED|SKIPPED) +\]|^\[  PASSED|Failure" "$L"/group-*.log | tee -a "$G"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
