#!/usr/bin/env bash
# GPU call 2: search_spaces/workload.json as changed here (BM and BN 32 added to the space,
# 4096x96x1024 and 96x4096x1024 in place of 4096x256x1024 and 256x4096x1024; no BK 8) tuned
# afresh; its header against the header of the previous session's tuning of the workload
# space (2026-12-01-h200-c-width/call3, the same kernel template), both emitted from source
# by this commit and built here in parallel; one discarded warm-up run, two rounds in
# alternating order; then every choice of the new header swept for the replay tool. Logs
# to $OUT.
set -u
source tools/device_env.sh
W=/tmp/w2; mkdir -p $W/old $W/new
T0=$(date +%s)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,memory.used --format=csv; } > $OUT/date.txt
gunzip -c .device/call3.db.gz > $W/old.db
timeout 240 .device/sgemm-tune --space search_spaces/workload.json --db $W/new.db > $W/tune.txt 2> $W/tune.err
echo "tune exit $? after $(( $(date +%s) - T0 )) s"
build() {
  .device/sgemm-tune emit --db $W/$1.db --out $W/$1/sgemm_tuned.h --from-source > $W/$1/emit.txt 2>&1 &&
  cmake -S tools/bench_shapes -B $W/$1/build -G Ninja -DSGEMM_TUNED_HEADER=$W/$1/sgemm_tuned.h > $W/$1/build.log 2>&1 &&
  cmake --build $W/$1/build >> $W/$1/build.log 2>&1
}
build old & build new & wait
echo "built after $(( $(date +%s) - T0 )) s: $(ls $W/*/build/bench_shapes)"
run() { timeout 45 $W/$1/build/bench_shapes --seed 1 --count 48 > $W/$1-round$2.txt 2>&1; echo "$1 round $2 exit $?: $(grep '^geometric mean' $W/$1-round$2.txt | head -1)"; }
run old 0; run old 1; run new 1; run new 2; run old 2
left=$(( 585 - ($(date +%s) - T0) ))
echo "sweep for $((left - 15)) s"
[ $left -gt 40 ] && timeout $left $W/new/build/bench_shapes --sweep --sweep-seconds $((left - 15)) --seed 1 --count 48 > $W/sweep.csv 2> $W/sweep.err
gzip -c $W/new.db > $OUT/workload.db.gz; gzip -c $W/sweep.csv > $OUT/sweep.csv.gz 2>/dev/null
tar czf $OUT/logs.tgz -C $W tune.txt tune.err sweep.err old-round1.txt old-round2.txt new-round1.txt new-round2.txt old/emit.txt new/emit.txt new/sgemm_tuned.h; cp $W/old-round[12].txt $W/new-round[12].txt $OUT/
tail -n 3 $W/old/build.log $W/new/build.log | grep -i error
for f in $W/*-round*.txt; do echo "$(basename $f): $(grep -E '^geometric mean of' $f | tr '\n' ' ' | cut -c1-200)"; done
grep -E "worst" $W/new-round1.txt | head -2
