#!/usr/bin/env bash
# GPU call 3: C transposed or unaligned stored through shared memory (the edge kernels'
# staged epilogue) against the same header from the template before it: the header of
# 2026-12-02-h200-measured-dispatch/call6's tuning emitted from source by 416e423
# (.device/bs_old) and by this tree (.device/bs_stage), both built on the CPU machine for
# sm_90. bench_shapes old new new old at beta 0 and at beta 0.5 (predicted dispatch); then
# GpuBlas.* with this tree's template. Logs to $OUT.
set -u
source tools/device_env.sh
T0=$(date +%s)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
run() {  # version, beta, round
  timeout 90 .device/bs_$1/bench_shapes --seed 1 --count 48 --beta $2 > $OUT/beta$2-$1-round$3.txt 2>&1
  echo "$1 beta $2 round $3 exit $? after $(( $(date +%s) - T0 )) s: $(grep '^geometric mean' $OUT/beta$2-$1-round$3.txt | head -1)"
}
for beta in 0 0.5; do run old $beta 1; run stage $beta 1; run stage $beta 2; run old $beta 2; done
SGEMM_TUNE_SOURCE_DIR=$PWD timeout 300 .device/sgemm_tune_gpu_tests --gtest_filter='GpuBlas.*' > $OUT/gpublas.txt 2>&1
echo "GpuBlas exit $? after $(( $(date +%s) - T0 )) s: $(grep -E '^\[  (PASSED|FAILED)' $OUT/gpublas.txt | tr '\n' ' ')"
for beta in 0 0.5; do for r in 1 2; do echo "beta $beta round $r"; python3 tools/bench_compare.py $OUT/beta$beta-old-round$r.txt $OUT/beta$beta-stage-round$r.txt; done; done
