#!/usr/bin/env bash
# The benchmark of shapes nobody tuned: tune SPACE (or take the database DB), emit a header
# from it, build tools/bench_shapes with it, check its cuBLAS mapping on the host, then run a
# seeded random set of COUNT problems (every layout and op pair, padded leading dimensions,
# unaligned operands) and the eight suite shapes through the header and through cuBLAS on
# the same inputs, both verified. The table goes to the terminal and to $OUT/shapes.txt.
#   OUT=/tmp/out tools/bench_shapes.sh [TUNE-TIME-LIMIT-SECONDS]
# Environment: SPACE (default search_spaces/suite.json), DB (an existing database: no
# tuning), SEED (default 1), COUNT (default 48), BIN (the prebuilt sgemm-tune's folder,
# default .device), CUDA_ARCHITECTURES (default: the GPU in hand), SWEEP_SECONDS (then, after
# the benchmark, time every kernel the selection could pick for each problem, for at most
# this long, into $OUT/sweep.csv: bench_shapes --sweep), DISPATCH (predicted, the default,
# or measured: the header's sgemm_tune::Dispatch for the benchmark), PROBLEMS (a problem list,
# bench_shapes --problems, in place of the random, suite and named sets), GRAPHS (1: time
# each side's rounds, and the sweep's choices, replayed as CUDA graphs, bench_shapes
# --graphs: GPU time without the host's time per call). Exit status: the
# benchmark's (1 if any problem failed, 2 a CUDA error), else 1 naming the step that failed.
set -uo pipefail
: "${OUT:?set OUT to the folder for logs}"
# Paths as the caller meant them, before moving to the repository's root.
OUT=$(realpath -m "$OUT")
[[ -n "${DB:-}" ]] && DB=$(realpath -m "$DB")
problems=()
[[ -n "${PROBLEMS:-}" ]] && problems=(--problems "$(realpath -m "$PROBLEMS")")
timing=()  # the benchmark's and the sweep's: --self-test refuses it
[[ "${GRAPHS:-0}" == 1 ]] && timing=(--graphs)
cd "$(dirname "$0")/.."
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
BIN=${BIN:-.device}
SPACE=${SPACE:-search_spaces/suite.json}
SEED=${SEED:-1}
COUNT=${COUNT:-48}
DISPATCH=${DISPATCH:-predicted}
[[ "$DISPATCH" == predicted || "$DISPATCH" == measured ]] ||
  { echo "DISPATCH=$DISPATCH: predicted or measured" >&2; exit 1; }
limit=${1:-600}
work=/tmp/bench_shapes
mkdir -p "$OUT" "$work"
echo "binaries built at commit: $(cat "$BIN/COMMIT" 2>/dev/null || echo unknown)" | tee "$OUT/shapes.txt"

if [[ -n "${DB:-}" ]]; then
  [[ -f "$DB" ]] || { echo "no database at DB=$DB" | tee -a "$OUT/shapes.txt"; exit 1; }
  db=$DB
  echo "database $db as given, not tuned" | tee -a "$OUT/shapes.txt"
else
  db=$OUT/shapes.db
  start=$(date +%s)
  timeout -s INT "$limit" "$BIN/sgemm-tune" --space "$SPACE" --db "$db" --top 3 \
    >"$OUT/shapes-tune.txt" 2>"$OUT/shapes-tune.log"
  echo "tuned $SPACE into $db: exit $?, $(( $(date +%s) - start )) s" | tee -a "$OUT/shapes.txt"
  [[ -f "$db" ]] && python3 -c "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(TRUNCATE)')" "$db"
fi

"$BIN/sgemm-tune" emit --db "$db" --out "$work/sgemm_tuned.h" 2>&1 | tee -a "$OUT/shapes.txt"
[[ ${PIPESTATUS[0]} -eq 0 ]] || { echo "emit failed" | tee -a "$OUT/shapes.txt"; exit 1; }

rm -rf "$work/build"
{ cmake -S tools/bench_shapes -B "$work/build" -G Ninja -DSGEMM_TUNED_HEADER="$work/sgemm_tuned.h" \
    ${CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCHITECTURES"} &&
    cmake --build "$work/build"; } >"$OUT/shapes-build.log" 2>&1 ||
  { tail -20 "$OUT/shapes-build.log"; echo "build failed: $OUT/shapes-build.log" | tee -a "$OUT/shapes.txt"; exit 1; }

"$work/build/bench_shapes" --self-test --seed "$SEED" --count "$COUNT" "${problems[@]}" 2>&1 | tee -a "$OUT/shapes.txt"
[[ ${PIPESTATUS[0]} -eq 0 ]] || { echo "self-test failed" | tee -a "$OUT/shapes.txt"; exit 1; }

"$work/build/bench_shapes" --seed "$SEED" --count "$COUNT" --dispatch "$DISPATCH" "${problems[@]}" "${timing[@]}" 2>&1 | tee -a "$OUT/shapes.txt"
rc=${PIPESTATUS[0]}
if [[ -n "${SWEEP_SECONDS:-}" ]]; then
  "$work/build/bench_shapes" --sweep --sweep-seconds "$SWEEP_SECONDS" --seed "$SEED" --count "$COUNT" "${problems[@]}" "${timing[@]}" \
    >"$OUT/sweep.csv" 2>&1
  sweep_rc=$?
  echo "sweep exit $sweep_rc: $(grep -c '^choice,' "$OUT/sweep.csv") choices; $(tail -1 "$OUT/sweep.csv")" | tee -a "$OUT/shapes.txt"
  # A choice that computed a wrong product fails the script as a wrong benchmark result does.
  [[ "$rc" -eq 0 ]] && rc=$sweep_rc
fi
exit "$rc"
