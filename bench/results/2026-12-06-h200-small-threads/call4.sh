#!/usr/bin/env bash
# Call 4: every choice the headers of call 2's tunings (W and S, tuned on the H200) offer,
# timed as graphs, on the random sets of seeds 1 and 2 (W) and 2 (S; call 3 swept seed 1):
# what the selection's model is judged and refitted on. Meant for the H200; it ran on an
# H100 (gpu.txt names the GPU), which takes those entries by architecture. Carry
# [".device"]: devbin.tgz with bench_shapes-S and bench_shapes-W (call 3's pack).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
for run in "W 1" "S 2" "W 2"; do
  set -- $run
  csv=$OUT/sweep-graphs-$1-seed$2.csv
  timeout 115 ".device/bench_shapes-$1" --sweep --graphs --seed "$2" --count 48 --sweep-seconds 95 >"$csv" 2>&1
  echo "sweep --graphs $1 seed $2 exit $? after $(($(date +%s) - T0)) s: $(grep -c '^choice,[0-9]' "$csv") choices; $(tail -1 "$csv")" | tee -a "$G"
  gzip -9 "$csv"
done
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
