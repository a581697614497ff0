#!/usr/bin/env bash
# GPU session 4 (2026-11-30): the GPU tests (kill-and-resume among them); the staged search
# of search_spaces/4096.json; the same command again (everything reused); a header emitted
# from the database, built with nvcc into tools/example and checked against cuBLAS and
# against the database's time.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?}"
BIN=${BIN:-.device}
TUNE="$BIN/sgemm-tune"
export SGEMM_TUNE_BINARY=$PWD/$BIN/sgemm-tune

OUT=$OUT tools/gpu_session.sh --time-limit 200 -- --space search_spaces/4096.json

{
  echo "== the same command again: measured results are reused"
  start=$(date +%s)
  "$TUNE" --space search_spaces/4096.json --db "$OUT/tune.db" --top 3 2>&1 | grep -v "^\["
  echo "exit $?, $(( $(date +%s) - start )) s"
} 2>&1 | tee "$OUT/rerun.txt"

{
  mkdir -p /tmp/tuned
  "$TUNE" emit --db "$OUT/tune.db" --out /tmp/tuned/sgemm_tuned.h
  "$TUNE" emit --db "$OUT/tune.db" --out /tmp/tuned/again.h
  cmp /tmp/tuned/sgemm_tuned.h /tmp/tuned/again.h && echo "emitted twice: identical bytes"
  sed -n '1,12p' /tmp/tuned/sgemm_tuned.h
  "$TUNE" best --db "$OUT/tune.db" --shape 4096x4096x4096
  for s in 1000x1000x1000 4097x513x77 1x1x1 8192x8192x8192; do "$TUNE" best --db "$OUT/tune.db" --shape $s | head -2; done
  echo "== example: built with nvcc from the emitted header"
  start=$(date +%s)
  cmake -S tools/example -B /tmp/example -G Ninja -DSGEMM_TUNED_HEADER=/tmp/tuned/sgemm_tuned.h >/tmp/example-build.log 2>&1 &&
    cmake --build /tmp/example >>/tmp/example-build.log 2>&1
  echo "build exit $?, $(( $(date +%s) - start )) s"; tail -3 /tmp/example-build.log
  /tmp/example/sgemm_tuned_example 4096x4096x4096 1000x1000x1000 4097x513x77 1x1x1 2048x2048x2048 8192x8192x8192
  echo "example exit $?"
  /tmp/example/sgemm_tuned_example 4096x4096x4096 4096x4096x4096 4096x4096x4096
  "$TUNE" best --db "$OUT/tune.db" --shape 4096x4096x4096 --json | python3 -c "
import json, sys; b = json.load(sys.stdin); print('database time at 4096^3: %.4f ms (%s)' % (b['config']['time_ms'], b['selection']))"
} 2>&1 | tee "$OUT/example.txt"
python3 -c "import sqlite3; c = sqlite3.connect('$OUT/tune.db'); c.execute('PRAGMA wal_checkpoint(TRUNCATE)')"
