#!/usr/bin/env bash
# GPU call 3: the measured dispatch timing bursts of calls from an idle stream, against the
# predicted dispatch, paired as in call1 (one bench_shapes program rebuilt with this
# runtime, .device/bs): beta 0 rounds P M, M P; beta 0.5 P M. Then the GPU test of the BLAS
# entry point (GpuBlas.*, with `sgemm_blas_check measured`), built there against this tree.
set -u
source tools/device_env.sh
T0=$(date +%s)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
run() {  # dispatch, beta, round
  timeout 90 .device/bs/bench_shapes --seed 1 --count 48 --beta $2 --dispatch $1 > $OUT/beta$2-$1-round$3.txt 2>&1
  echo "$1 beta $2 round $3 exit $? after $(( $(date +%s) - T0 )) s: $(grep '^geometric mean' $OUT/beta$2-$1-round$3.txt | head -1)"
}
run predicted 0 1; run measured 0 1; run measured 0 2; run predicted 0 2; run predicted 0.5 1; run measured 0.5 1
SGEMM_TUNE_SOURCE_DIR=$PWD timeout 200 .device/sgemm_tune_gpu_tests --gtest_filter='GpuBlas.*' > $OUT/gpu_blas.log 2>&1
echo "GpuBlas exit $? after $(( $(date +%s) - T0 )) s"; grep -E "^\[  (PASSED|FAILED) |measured" $OUT/gpu_blas.log | tail -4
gzip -f $OUT/gpu_blas.log
