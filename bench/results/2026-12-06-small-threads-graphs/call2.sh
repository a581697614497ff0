#!/usr/bin/env bash
# Call 2 (session 42): search_spaces/workload.json as it now stands (call 1's GS space under
# the shipped name) tuned here afresh as W2, 210 s at most: a second tuning, to see how far
# call 1's gain is the space's and how far one tuning's. GS's program (call 1's tuning,
# built on the CPU machine) travels as .device/bench_shapes-GS. Then the random set of seeds
# 1 and 2, predicted dispatch, as graphs, in the order GS1 W2-1 W2-2 GS2; W2 with the
# measured dispatch, seeds 1 and 2; and in the time left every choice of W2's header at seed
# 2's problems (a sweep, as graphs). Carry [".device"]: devbin.tgz (sgemm-tune,
# sgemm_tune_gpu_tests, bench_shapes-GS). Under $OUT: gpu.txt, tune-W2.db.gz, logs.tgz,
# the four predicted rounds, the sweep (logs.tgz holds the measured rounds).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
source bench/results/2026-12-05-h100-small-splits/steps.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L" build-edge-shapes
tune W2 search_spaces/workload.json 210 build-edge-shapes/tune-W2.db
gzip -9c build-edge-shapes/tune-W2.db >"$OUT/tune-W2.db.gz"
build_program W2
for round in "GS 1" "W2 1" "W2 2" "GS 2"; do
  graphs_round $round 45
done
for seed in 1 2; do
  log=$L/W2-seed$seed-measured-graphs.txt
  timeout 60 .device/bench_shapes-W2 --seed "$seed" --count 48 --dispatch measured --graphs >"$log" 2>&1
  echo "W2 seed $seed measured graphs exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$G"
  grep -E "^worst" "$log" | tee -a "$G"
done
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
left=$((560 - ($(date +%s) - T0)))
if [ "$left" -gt 40 ]; then
  csv=$OUT/sweep-graphs-W2-seed2.csv
  timeout "$((left + 10))" .device/bench_shapes-W2 --sweep --graphs --seed 2 --count 48 --sweep-seconds "$left" >"$csv" 2>&1
  echo "sweep --graphs W2 seed 2 exit $? after $(($(date +%s) - T0)) s: $(grep -c '^choice,[0-9]' "$csv") choices; $(tail -1 "$csv")" | tee -a "$G"
  gzip -9 "$csv"
fi
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
