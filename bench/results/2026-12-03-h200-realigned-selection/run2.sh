#!/usr/bin/env bash
# Not yet run (issue 11; written in session 23): the whole path at this commit, as a user runs it (as
# bench/results/2026-12-02-h200-measured-dispatch/run5.sh, the last such run):
# search_spaces/workload.json tuned afresh, a header emitted with its machine code,
# bench_shapes built there against it, then the random set of seed 1 with the predicted and
# the measured dispatch in alternating order (P M M P). Logs and the database to $OUT.
# Carry [".device"] (tools/pack_for_device.sh; the binaries may be gzipped).
set -u
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
for f in sgemm-tune sgemm_tune_gpu_tests; do
  [[ -f .device/$f.gz ]] && gunzip -f .device/$f.gz && chmod +x .device/$f
done
W=/tmp/w6; mkdir -p $W
T0=$(date +%s)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
timeout 240 .device/sgemm-tune --space search_spaces/workload.json --db $W/workload.db > $W/tune.txt 2> $W/tune.err
echo "tune exit $? after $(( $(date +%s) - T0 )) s"
tail -3 $W/tune.txt
python3 -c "import sqlite3; sqlite3.connect('$W/workload.db').execute('PRAGMA wal_checkpoint(TRUNCATE)')"
gzip -c $W/workload.db > $OUT/workload.db.gz
.device/sgemm-tune emit --db $W/workload.db --out $W/sgemm_tuned.h > $W/emit.txt 2>&1 &&
  cmake -S tools/bench_shapes -B $W/build -G Ninja -DSGEMM_TUNED_HEADER=$W/sgemm_tuned.h > $W/build.log 2>&1 &&
  cmake --build $W/build >> $W/build.log 2>&1 || { echo "build failed"; tail -n 20 $W/emit.txt $W/build.log; }
echo "built after $(( $(date +%s) - T0 )) s; $(head -c 300 $W/emit.txt)"
run() {  # dispatch, round
  timeout 60 $W/build/bench_shapes --seed 1 --count 48 --dispatch $1 > $OUT/$1-round$2.txt 2>&1
  echo "$1 round $2 exit $? after $(( $(date +%s) - T0 )) s: $(grep '^geometric mean' $OUT/$1-round$2.txt | head -1)"
}
run predicted 1; run measured 1; run measured 2; run predicted 2
tar czf $OUT/logs.tgz -C $W tune.txt tune.err emit.txt build.log
grep -h "^worst" $OUT/*-round*.txt
for f in $OUT/*-round*.txt; do echo "$(basename $f): $(awk '$2=="named" {printf "%sx%sx%s %s  ", $5, $6, $7, $14}' $f)"; done
