#!/usr/bin/env bash
# Call 3 (session 41): bench/experiments/workload_graphs_per_shape2.json (the workload space
# timed as graphs, two finalist structures per shape) tuned here as P, 100 s at most, beside
# C (search_spaces/workload.json timed back to back: on an H100 the tuning of
# ../2026-12-06-h200-small-threads/call5, elsewhere tuned here first, 70 s). Both headers
# built here at once, then the random set of seeds 1 and 2 through both, predicted
# dispatch, as graphs, in the order C1 P1 P2 C2. Carry [".device"] (devbin.tgz with
# sgemm-tune). Under $OUT: gpu.txt, tune-P.db.gz (and tune-C.db.gz where C was tuned here),
# logs.tgz and the four rounds.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
source bench/results/2026-12-05-h100-small-splits/steps.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L" build-edge-shapes
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q "H100 80GB HBM3"; then
  gunzip -c bench/results/2026-12-06-h200-small-threads/call5/tune-C.db.gz >build-edge-shapes/tune-C.db
  echo "C: the H100 tuning of ../2026-12-06-h200-small-threads/call5" | tee -a "$G"
else
  tune C search_spaces/workload.json 70 build-edge-shapes/tune-C.db
  gzip -9c build-edge-shapes/tune-C.db >"$OUT/tune-C.db.gz"
fi
tune P bench/experiments/workload_graphs_per_shape2.json 100 build-edge-shapes/tune-P.db
gzip -9c build-edge-shapes/tune-P.db >"$OUT/tune-P.db.gz"
build_program C &
build_program P
wait
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
for round in "C 1" "P 1" "P 2" "C 2"; do
  graphs_round $round 45
done
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
