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
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L" build-edge-shapes
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q "H100 80GB HBM3"; then
  cp .device/bench_shapes-A .device/bench_shapes-W
else
  tune W search_spaces/workload.json 80 build-edge-shapes/tune-W.db
  gzip -9c build-edge-shapes/tune-W.db >"$OUT/tune-W.db.gz"
  build_program W &
fi
tune S bench/experiments/workload_small_threads.json 150 build-edge-shapes/tune-S.db
gzip -9c build-edge-shapes/tune-S.db >"$OUT/tune-S.db.gz"
build_program S
wait
graphs_round() {  # graphs_round V SEED: the random set of SEED through V, timed as graphs
  local log=$L/$1-seed$2-graphs-$(date +%s).txt
  timeout 45 ".device/bench_shapes-$1" --seed "$2" --count 48 --dispatch predicted --graphs >"$log" 2>&1
  echo "$1 seed $2 graphs exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$G"
  grep -E "^worst| named " "$log" | cut -c1-140 | tee -a "$G"
}
graphs_round W 1
graphs_round S 1
graphs_round S 2
graphs_round W 2
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
