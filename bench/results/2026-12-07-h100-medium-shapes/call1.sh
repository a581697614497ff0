#!/usr/bin/env bash
# Call 1 (session 48): does the workload space gain from three medium shapes that only tiles
# of 64 rows or columns divide? A: search_spaces/workload.json tuned afresh on this GPU. B: a
# copy of A's database tuned on bench/experiments/workload_medium.json (the same space with
# 704x192x3072, 576x448x1024 and 2944x320x576 added), so that B re-times nothing A measured
# and differs from A only by what the new shapes bring (their probes, and each one's two
# best structures as finalists). Both headers emitted with their machine code and
# tools/bench_shapes built on each here, then paired rounds as graphs with the predicted
# dispatch: the aligned twins and triplets list, random seeds 1 and 2. Carry [".device"]
# with devbin.tgz holding this tree's sgemm-tune. Under $OUT: gpu.txt, both databases,
# the tuners' reports and logs, rounds.tgz. About 7 minutes.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start
L=$OUT
mkdir -p build-edge-shapes
rm -f build-edge-shapes/tune-A.db* build-edge-shapes/tune-B.db*
tune A search_spaces/workload.json "${TUNE_A_SECONDS:-250}" build-edge-shapes/tune-A.db
cp build-edge-shapes/tune-A.db build-edge-shapes/tune-B.db
tune B bench/experiments/workload_medium.json "${TUNE_B_SECONDS:-100}" build-edge-shapes/tune-B.db
for v in A B; do gzip -9c "build-edge-shapes/tune-$v.db" >"$OUT/tune-$v.db.gz"; done
build_program A &
build_program B
wait
R=$OUT/rounds
mkdir -p "$R"
paired_rounds A B bench/experiments/aligned_ab_twins.txt
tar czf "$OUT/rounds.tgz" -C "$OUT" rounds && rm -rf "$R"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
