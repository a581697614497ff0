#!/usr/bin/env bash
# Call 3 (H200): small_products split again, on the random set's small products with N and K
# rounded up to multiples of 4 (call 1 stopped at the first unaligned one); the headers of
# call 2's tunings (W: search_spaces/workload.json, S: bench/experiments/
# workload_small_threads.json, both tuned on this GPU), built on the CPU machine, through the
# random set of seeds 1 and 2 with the measured dispatch, timed as graphs; then every choice
# S's header offers on seed 1's problems, timed as graphs (the data a refit of the selection
# needs, and the oracle: how far the best choice S offers is from cuBLAS). Carry
# [".device"]: devbin.tgz with small_products, bench_shapes-S and bench_shapes-W.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
source bench/results/2026-12-05-h100-small-splits/steps.sh
call_start  # common.sh: unpack, T0, G, the header
small_products_split 150
# measured_round V SEED SECONDS: as steps.sh's graphs_round, with the measured dispatch.
measured_round() {
  local log=$OUT/$1-seed$2-measured-graphs.txt
  timeout "$3" ".device/bench_shapes-$1" --seed "$2" --count 48 --dispatch measured --graphs >"$log" 2>&1
  echo "$1 seed $2 measured graphs exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$G"
  grep -E "^worst| named " "$log" | cut -c1-140 | tee -a "$G"
}
for round in "W 1" "S 1" "S 2" "W 2"; do
  measured_round $round 50
done
csv=$OUT/sweep-graphs-S-seed1.csv
timeout 200 .device/bench_shapes-S --sweep --graphs --seed 1 --count 48 --sweep-seconds 170 >"$csv" 2>&1
echo "sweep --graphs S seed 1 exit $? after $(($(date +%s) - T0)) s: $(grep -c '^choice,[0-9]' "$csv") choices; $(tail -1 "$csv")" | tee -a "$G"
gzip -9 "$csv"
# The short table: per small product, cuBLAS and each tile's best way.
python3 - "$OUT/split.txt" <<'PY' | tee -a "$G"
import sys
best, cublas = {}, {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 9 or not f[0][0].isdigit() or 'x' not in f[0]:
        continue
    if f[1] == 'cublas':
        cublas[f[0]] = float(f[6]); continue
    key, g = (f[0], ' '.join(f[1:4])), float(f[8])
    if key not in best or g < best[key][0]:
        best[key] = (g, f[4], f[5])
for (p, tile), (g, s, how) in best.items():
    print(f"{p:16s} {tile:24s} best {g:7.2f} us split {s} {how:8s} cublas {cublas.get(p, float('nan')):7.2f}")
PY
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
