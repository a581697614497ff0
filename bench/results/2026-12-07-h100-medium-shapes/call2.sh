#!/usr/bin/env bash
# Call 2 (session 48): the medium products as BLAS shapes, timed on the edge kernel in the
# staged search's first stage. A: call 1's tuning of search_spaces/workload.json (its
# database, from call1/tune-A.db.gz). C: a copy of it tuned on
# bench/experiments/workload_medium_blas.json (the workload space with 760x184x3232:NN,
# 636x460x984:NN, 2968x284x560:NN and 1000x1000x1000:NN, blas_shapes_in_first_stage), so
# that C re-times nothing A measured. Both headers emitted with their machine code,
# tools/bench_shapes built on each here, then paired rounds as graphs with the predicted
# dispatch (aligned twins and triplets, random seeds 1 and 2). Carry [".device"] with
# devbin.tgz holding this tree's sgemm-tune. Under $OUT: gpu.txt, C's database, its
# tuner's report and log, rounds.tgz. About 5 minutes.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start
L=$OUT
mkdir -p build-edge-shapes
rm -f build-edge-shapes/tune-A.db* build-edge-shapes/tune-C.db*
xz -dc bench/results/2026-12-07-h100-medium-shapes/call1/tune-A.db.xz >build-edge-shapes/tune-A.db
cp build-edge-shapes/tune-A.db build-edge-shapes/tune-C.db
tune C bench/experiments/workload_medium_blas.json "${TUNE_C_SECONDS:-200}" build-edge-shapes/tune-C.db
gzip -9c build-edge-shapes/tune-C.db >"$OUT/tune-C.db.gz"
build_program A &
build_program C
wait
R=$OUT/rounds
mkdir -p "$R"
paired_rounds A C bench/experiments/aligned_ab_twins.txt
tar czf "$OUT/rounds.tgz" -C "$OUT" rounds && rm -rf "$R"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
