#!/usr/bin/env bash
# GPU call 1: the measured dispatch against the predicted one, paired: one bench_shapes
# program (built on the CPU machine for sm_90 from a header emitted --from-source off the
# 2026-12-02-h200-skinny-tiles call2 database, carried in .device/bs), run alternately with
# --dispatch predicted and --dispatch measured. Beta 0 in two rounds (P M, then M P), then
# beta 0.5 one round (P M). Each run's table goes to $OUT as it ends.
set -u
source tools/device_env.sh
T0=$(date +%s)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
run() {  # dispatch, beta, round
  timeout 90 .device/bs/bench_shapes --seed 1 --count 48 --beta $2 --dispatch $1 > $OUT/beta$2-$1-round$3.txt 2>&1
  echo "$1 beta $2 round $3 exit $? after $(( $(date +%s) - T0 )) s: $(grep '^geometric mean' $OUT/beta$2-$1-round$3.txt | head -1)"
}
run predicted 0 1; run measured 0 1; run measured 0 2; run predicted 0 2; run predicted 0.5 1; run measured 0.5 1
echo "done after $(( $(date +%s) - T0 )) s"
