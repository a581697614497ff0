#!/usr/bin/env bash
# GPU call 1: the BLAS entry point's GPU tests at this commit (the review fixes of d22514e
# had not run on a GPU), then bench/experiments/workload_medium.json tuned afresh. Logs and
# the database to $OUT.
set -u
source tools/device_env.sh
W=/tmp/m1; mkdir -p $W
T0=$(date +%s)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
SGEMM_TUNE_SOURCE_DIR=$PWD timeout 300 .device/sgemm_tune_gpu_tests --gtest_filter='GpuBlas.*' > $OUT/gpublas.txt 2>&1
echo "GpuBlas exit $? after $(( $(date +%s) - T0 )) s: $(grep -E '^\[  (PASSED|FAILED)' $OUT/gpublas.txt | tr '\n' ' ')"
timeout 240 .device/sgemm-tune --space bench/experiments/workload_medium.json --db $W/medium.db > $W/tune.txt 2> $W/tune.err
echo "tune exit $? after $(( $(date +%s) - T0 )) s"
python3 -c "import sqlite3; sqlite3.connect('$W/medium.db').execute('PRAGMA wal_checkpoint(TRUNCATE)')"
gzip -c $W/medium.db > $OUT/medium.db.gz
gzip -c $W/tune.txt > $OUT/tune.txt.gz; tail -n 30 $W/tune.err > $OUT/tune-err-tail.txt
grep -E "^(shape|  1 )" $W/tune.txt | head -40
