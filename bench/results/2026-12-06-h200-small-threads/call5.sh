#!/usr/bin/env bash
# Call 5 (prepared in session 40, not yet run): whether tuning warm (bench/experiments/
# workload_warm.json: search_spaces/workload.json with timing.min_working_set_mib 1) serves
# the small products better than tuning cold (the default). Both spaces tuned here on the
# same GPU, 70 s each, one after the other (nothing else running while either times); then
# both headers built here at once; then the random set of seeds 1 and 2 through both,
# predicted dispatch, timed as graphs, in the order C1 H1 H2 C2 (C cold, H warm). About 7
# minutes. Carry [".device"]: devbin.tgz with sgemm-tune (stripped, built at this folder's
# commit or later). Under $OUT: gpu.txt, the two databases, logs.tgz (tunings and builds,
# packed before the rounds) and the four rounds: 8 files.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
source bench/results/2026-12-05-h100-small-splits/steps.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L" build-edge-shapes
tune C search_spaces/workload.json 70 build-edge-shapes/tune-C.db
tune H bench/experiments/workload_warm.json 70 build-edge-shapes/tune-H.db
gzip -9c build-edge-shapes/tune-C.db >"$OUT/tune-C.db.gz"
gzip -9c build-edge-shapes/tune-H.db >"$OUT/tune-H.db.gz"
build_program C &
build_program H
wait
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
for round in "C 1" "H 1" "H 2" "C 2"; do
  graphs_round $round 45
done
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
