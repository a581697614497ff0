#!/usr/bin/env bash
# GPU call 1: bench/experiments/workload_skinny.json (the workload space with 32-wide tiles,
# BK 8 and two skinny shapes) tuned afresh; its header against the header of the previous
# session's tuning of search_spaces/workload.json (2026-12-01-h200-c-width/call3, the same
# kernel template), both emitted from source by this commit and built here in parallel;
# two rounds in alternating order; then every choice of the new header swept for the
# replay tool. Logs to $OUT.
set -u
source tools/device_env.sh
W=/tmp/w1; mkdir -p $W/old $W/new
T0=$(date +%s)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,memory.used --format=csv; } > $OUT/date.txt
gunzip -c .device/call3.db.gz > $W/old.db
timeout 240 .device/sgemm-tune --space bench/experiments/workload_skinny.json --db $W/new.db > $W/tune.txt 2> $W/tune.err
echo "tune exit $? after $(( $(date +%s) - T0 )) s"
build() {
  .device/sgemm-tune emit --db $W/$1.db --out $W/$1/sgemm_tuned.h --from-source > $W/$1/emit.txt 2>&1 &&
  cmake -S tools/bench_shapes -B $W/$1/build -G Ninja -DSGEMM_TUNED_HEADER=$W/$1/sgemm_tuned.h > $W/$1/build.log 2>&1 &&
  cmake --build $W/$1/build >> $W/$1/build.log 2>&1
}
build old & build new & wait
echo "built after $(( $(date +%s) - T0 )) s: $(ls $W/*/build/bench_shapes)"
run() { timeout 45 $W/$1/build/bench_shapes --seed 1 --count 48 > $W/$1-round$2.txt 2>&1; echo "$1 round $2 exit $?: $(grep '^geometric mean' $W/$1-round$2.txt | head -1)"; }
run old 1; run new 1; run new 2; run old 2
left=$(( 585 - ($(date +%s) - T0) ))
echo "sweep for $((left - 15)) s"
[ $left -gt 40 ] && timeout $left $W/new/build/bench_shapes --sweep --sweep-seconds $((left - 15)) --seed 1 --count 48 > $W/sweep.csv 2> $W/sweep.err
gzip -c $W/new.db > $OUT/skinny.db.gz; gzip -c $W/sweep.csv > $OUT/sweep.csv.gz 2>/dev/null
cp $W/tune.txt $W/tune.err $W/*-round*.txt $W/sweep.err $OUT/ 2>/dev/null
tail -n 3 $W/old/build.log $W/new/build.log | grep -i error
for f in $W/*-round*.txt; do echo "$(basename $f): $(grep -E '^geometric mean of' $f | tr '\n' ' ' | cut -c1-200)"; done
grep -E "worst" $W/new-round1.txt | head -2
