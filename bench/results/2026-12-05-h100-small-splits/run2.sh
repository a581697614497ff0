#!/usr/bin/env bash
# Call 2 (H100 or H200), right after run1.sh on the same machine: do tiles of little work a
# thread help the random set through the header? S is bench/experiments/workload_small_threads.json
# (the workload space with warp tiles of 16 and thread tiles of 2 rows: 8 and 16 outputs a
# thread) tuned here, stopped at 150 s; W is search_spaces/workload.json: on an H100 session
# 37's tuning (bench_shapes-A, built against it, in devbin.tgz), elsewhere tuned here first.
# Both programs then run the random set of seeds 1 and 2 timed as graphs (GPU time), in
# alternating order. Carry [".device"]: devbin.tgz with sgemm-tune and bench_shapes-A.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
source bench/results/2026-12-05-h100-small-splits/steps.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L"
tune_small_threads 80 150
for round in "W 1" "S 1" "S 2" "W 2"; do
  graphs_round $round 45
done
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
