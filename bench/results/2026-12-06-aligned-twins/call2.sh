#!/usr/bin/env bash
# Call 2 (prepared in session 43, not yet run): how much of the unaligned rows' cost is C's.
# W3a's program, built on the CPU machine as ../2026-12-06-small-threads-graphs/call4.sh's
# header says, on bench/experiments/aligned_ab_twins.txt: each of call 1's 38 unaligned
# problems as drawn, then with A's and B's rows aligned and C's ldc as drawn (no offset),
# then with every row aligned. As graphs, predicted dispatch twice, then every choice of the
# header (sweep) for the best each form can reach. Carry [".device"] with devbin.tgz
# holding bench_shapes-W3a. About 3 minutes. Under $OUT: gpu.txt, rounds.tgz,
# sweep-ab-twins.csv.gz. SWEEP_SECONDS (default 180) bounds the sweep.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start
P=bench/experiments/aligned_ab_twins.txt
R=$OUT/rounds
mkdir -p "$R"
for run in 1 2; do
  log=$R/W3a-ab-twins-predicted$run.txt
  timeout 90 .device/bench_shapes-W3a --problems "$P" --dispatch predicted --graphs >"$log" 2>&1
  echo "ab twins predicted $run exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$G"
done
tar czf "$OUT/rounds.tgz" -C "$OUT" rounds && rm -rf "$R"
csv=$OUT/sweep-ab-twins.csv
sweep_s=${SWEEP_SECONDS:-180}
timeout $((sweep_s + 20)) .device/bench_shapes-W3a --sweep --graphs --problems "$P" --sweep-seconds "$sweep_s" >"$csv" 2>&1
echo "sweep ab twins exit $? after $(($(date +%s) - T0)) s: $(grep -c '^choice,[0-9]' "$csv") choices; $(tail -1 "$csv")" | tee -a "$G"
gzip -9 "$csv"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
