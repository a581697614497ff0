#!/usr/bin/env bash
# Call 10 (H100): bench_shapes --sweep --graphs (new) with A's header over small_problems.txt
# and sweep_problems.txt: every choice of the header timed as CUDA graphs, cuBLAS too, the
# first sweep in GPU time. Carry [".device"]: devbin.tgz with bench_shapes-A.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
for list in small_problems sweep_problems; do
  timeout 60 .device/bench_shapes-A --sweep --graphs --sweep-seconds 40 \
    --problems "bench/results/2026-12-05-h100-edge-shapes/$list.txt" >"$OUT/sweep-graphs-$list.csv" 2>&1
  echo "sweep --graphs $list exit $? after $(($(date +%s) - T0)) s: $(grep -c '^choice,[0-9]' "$OUT/sweep-graphs-$list.csv") choices, $(grep -c ',nan,' "$OUT/sweep-graphs-$list.csv") untimed; $(tail -1 "$OUT/sweep-graphs-$list.csv")" | tee -a "$G"
done
gzip -9 "$OUT"/sweep-graphs-*.csv
