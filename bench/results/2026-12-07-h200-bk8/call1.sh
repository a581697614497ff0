#!/usr/bin/env bash
# Call 1 (session 46): does a K slice of 8 serve the random set's small and medium products?
# cuBLAS runs them on BK 8 tiles with three stages (bench/NOTES.md, sessions 14 and 17:
# 32 x 32 x 8 of 2 warps, 64 x 64 x 8 of 4 warps), where the workload space offers BK 16
# and 32 only. The six tile structures of W3a's header, at the workload space's twelve
# shapes, every STAGES 2-4, PREFETCH and STREAMK, exhaustive: first with BK 16 and 32
# (bench/experiments/workload_bk8_base.json) into tune-base.db, then, in a copy of it, with
# BK 8 as well (workload_bk8.json), which reuses every result of the first and times only
# the BK 8 candidates. The two headers (machine code, emitted and built here) then differ
# only where a BK 8 tile won a shape. Paired rounds as graphs, predicted dispatch:
# bench/experiments/aligned_ab_twins.txt and the random sets of seeds 1 and 2.
# Predicted: BK 8 wins some of the small shapes (128x1024x128, 256^3, 512^3), and the random
# set's products under 20 us gain where it does; nothing at the suite and named shapes.
# Under $OUT: gpu.txt, logs.tgz, rounds.tgz, tune-bk8.db.gz. About 5 minutes, then
# c_narrow_scalar's rounds (below) while the call has time.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start
L=$OUT/logs R=$OUT/rounds
mkdir -p "$L" "$R" build-edge-shapes
# A warm machine may hold an earlier run's databases, which the tunings would resume.
rm -f build-edge-shapes/tune-base.db* build-edge-shapes/tune-bk8.db*
tune base bench/experiments/workload_bk8_base.json 200 build-edge-shapes/tune-base.db
cp build-edge-shapes/tune-base.db build-edge-shapes/tune-bk8.db
tune bk8 bench/experiments/workload_bk8.json 150 build-edge-shapes/tune-bk8.db
build_program base &
build_program bk8 &
wait
grep -h "^// \|entries\|^wrote" "$L"/build-*.log | head -40 >"$L/headers.txt"
paired_rounds base bk8 bench/experiments/aligned_ab_twins.txt
# Then, while the call has time, c_narrow_scalar (bench_shapes-cnarrow) against the one-warp
# price's header it was built beside (bench_shapes-sel; ../2026-12-06-h200-one-warp-price):
# the random sets, alternating.
if (($(date +%s) - T0 < 420)); then
  graph_round sel seed1n --seed 1 --count 48
  graph_round cnarrow seed1n --seed 1 --count 48
  graph_round cnarrow seed2n --seed 2 --count 48
  graph_round sel seed2n --seed 2 --count 48
fi
tar czf "$OUT/rounds.tgz" -C "$OUT" rounds && rm -rf "$R"
gzip -c build-edge-shapes/tune-bk8.db >"$OUT/tune-bk8.db.gz"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
