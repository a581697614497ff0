#!/usr/bin/env bash
# GPU call 6: the selection's rates refitted offline (kOneWarpPerSchedulerRate 0.6 -> 0.45,
# kTwoWarpsPerSchedulerRate 1.0 -> 0.85, kBlockOverheadSlices 2 -> 3: replay_sweep on the
# three workload sweeps) against the constants before, through the same header of
# 2026-12-02-h200-measured-dispatch/call6's tuning: .device/bs_old (416e423) and
# .device/bs_var (the new constants; the kernels the same), built on the CPU machine for
# sm_90. bench_shapes old new new old at beta 0, predicted dispatch. Logs to $OUT.
set -u
source tools/device_env.sh
T0=$(date +%s)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
run() {  # version, round
  timeout 60 .device/bs_$1/bench_shapes --seed 1 --count 48 > $OUT/$1-round$2.txt 2>&1
  echo "$1 round $2 exit $? after $(( $(date +%s) - T0 )) s: $(grep '^geometric mean' $OUT/$1-round$2.txt | head -1)"
}
run old 1; run var 1; run var 2; run old 2
for r in 1 2; do echo "round $r"; python3 tools/bench_compare.py $OUT/old-round$r.txt $OUT/var-round$r.txt --list; done > $OUT/compare.txt
head -n 9 $OUT/compare.txt; grep -A9 "^round 2" $OUT/compare.txt | head -9
