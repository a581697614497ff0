#!/usr/bin/env bash
# GPU call 2: the header of call1's tuning (bench/experiments/workload_medium.json) against
# the header of the workload space's last tuning (2026-12-02-h200-measured-dispatch/call6),
# both emitted from source by this commit and built on the CPU machine for sm_90 (.device/bs_old,
# .device/bs_new): bench_shapes old new new old at beta 0, predicted dispatch; then the
# sweep of the new header (every kernel each problem could run). Logs to $OUT.
set -u
source tools/device_env.sh
T0=$(date +%s)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
run() {  # version, round
  timeout 90 .device/bs_$1/bench_shapes --seed 1 --count 48 > $OUT/$1-round$2.txt 2>&1
  echo "$1 round $2 exit $? after $(( $(date +%s) - T0 )) s: $(grep '^geometric mean' $OUT/$1-round$2.txt | head -1)"
}
run old 1; run new 1; run new 2; run old 2
timeout 200 .device/bs_new/bench_shapes --sweep --seed 1 --count 48 > $OUT/sweep.csv 2> $OUT/sweep.err
echo "sweep exit $? after $(( $(date +%s) - T0 )) s: $(tail -n 1 $OUT/sweep.csv)"
gzip $OUT/sweep.csv
for r in 1 2; do python3 tools/bench_compare.py $OUT/old-round$r.txt $OUT/new-round$r.txt; done
