#!/usr/bin/env bash
# Call 3 (session 48): strategy.blas_probes measured. A: call 1's tuning of
# search_spaces/workload.json (call1/tune-A.db.xz). D: a copy of it tuned on
# bench/experiments/workload_blas_probes.json: the workload space with four medium BLAS
# products (700x200x3000, 600x500x1000, 3000x300x500 and 1200x1200x1200, NN: sides not
# multiples of 32, none a problem of the benchmark's sets) that its probes of 4 warps and at
# most 8192 outputs a block time in the first stage, each keeping its two best structures.
# D re-times nothing A measured. Both headers emitted with their machine code,
# tools/bench_shapes built on each here, then paired rounds as graphs with the predicted
# dispatch (aligned twins and triplets, random seeds 1 and 2). Carry [".device"] with
# devbin.tgz holding this tree's sgemm-tune. Under $OUT: gpu.txt, D's database, its tuner's
# report and log, rounds.tgz. About 6 minutes.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start
L=$OUT
mkdir -p build-edge-shapes
rm -f build-edge-shapes/tune-A.db* build-edge-shapes/tune-D.db*
xz -dc bench/results/2026-12-07-h100-medium-shapes/call1/tune-A.db.xz >build-edge-shapes/tune-A.db
cp build-edge-shapes/tune-A.db build-edge-shapes/tune-D.db
build_program A &
tune D bench/experiments/workload_blas_probes.json "${TUNE_D_SECONDS:-240}" build-edge-shapes/tune-D.db
xz -6 -T0 -c build-edge-shapes/tune-D.db >"$OUT/tune-D.db.xz"
build_program D
wait
R=$OUT/rounds
mkdir -p "$R"
paired_rounds A D bench/experiments/aligned_ab_twins.txt
tar czf "$OUT/rounds.tgz" -C "$OUT" rounds && rm -rf "$R"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
