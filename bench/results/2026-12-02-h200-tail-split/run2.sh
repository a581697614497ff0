#!/usr/bin/env bash
# GPU call 2: call 1 again after the fix (the tail split of a STREAMK = 0 tile asked the runtime for its resident blocks through tile_persistent_blocks, which answers 0 for a data-parallel tile: cudaErrorInvalidValue). The GPU tests of the BLAS entry point and of the
# emitted header (GpuBlas.*, GpuHeader.*: `sgemm_blas_check edges` now launches every entry's
# edge kernel tail-split too), then the header of 2026-12-02-h200-measured-dispatch/call6's
# tuning built twice on the CPU machine for sm_90, at 74a0d9b (.device/bs_old) and with the
# tail split (.device/bs_new): bench_shapes old new new old at beta 0, predicted dispatch;
# then the new header's sweep (every kernel each problem could run, tail splits included),
# for replay_sweep. Logs to $OUT.
set -u
source tools/device_env.sh
T0=$(date +%s)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
SGEMM_TUNE_SOURCE_DIR=$PWD timeout 280 .device/sgemm_tune_gpu_tests --gtest_filter='GpuBlas.*:GpuHeader.*' > $OUT/gputests.txt 2>&1
echo "GPU tests exit $? after $(( $(date +%s) - T0 )) s: $(grep -E '^\[  (PASSED|FAILED)' $OUT/gputests.txt | tr '\n' ' ')"
run() {  # version, round
  timeout 60 .device/bs_$1/bench_shapes --seed 1 --count 48 > $OUT/$1-round$2.txt 2>&1
  echo "$1 round $2 exit $? after $(( $(date +%s) - T0 )) s: $(grep '^geometric mean' $OUT/$1-round$2.txt | head -1)"
}
run old 1; run new 1; run new 2; run old 2
timeout 150 .device/bs_new/bench_shapes --sweep --seed 1 --count 48 > $OUT/sweep.csv 2> $OUT/sweep.err
echo "sweep exit $? after $(( $(date +%s) - T0 )) s: $(tail -n 1 $OUT/sweep.csv)"
gzip $OUT/sweep.csv
for r in 1 2; do echo "round $r"; python3 tools/bench_compare.py $OUT/old-round$r.txt $OUT/new-round$r.txt --list; done > $OUT/compare.txt
for r in 1 2; do python3 tools/bench_compare.py $OUT/old-round$r.txt $OUT/new-round$r.txt; done
