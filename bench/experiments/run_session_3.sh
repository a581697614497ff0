#!/usr/bin/env bash
# GPU session 3 (2026-11-30): the GPU tests; the staged search of search_spaces/4096.json
# with the current template; a header emitted from its database, built into
# tools/example with nvcc and checked against cuBLAS and against the database's time;
# then a one-character template edit, `stale`, and `--stale` re-searching exactly that.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?}"
BIN=${BIN:-.device}
TUNE="$BIN/sgemm-tune"

OUT=$OUT tools/gpu_session.sh --time-limit 200 -- --space search_spaces/4096.json

{
  echo "== emit"
  mkdir -p /tmp/tuned
  "$TUNE" emit --db "$OUT/tune.db" --out /tmp/tuned/sgemm_tuned.h 2>&1
  "$TUNE" emit --db "$OUT/tune.db" --out /tmp/tuned/again.h 2>&1
  cmp /tmp/tuned/sgemm_tuned.h /tmp/tuned/again.h && echo "emitted twice: identical bytes"
  sed -n '1,12p' /tmp/tuned/sgemm_tuned.h
  echo "== best"
  "$TUNE" best --db "$OUT/tune.db" --shape 4096x4096x4096
  "$TUNE" best --db "$OUT/tune.db" --shape 4096x4096x4096 --json >/tmp/best.json
  echo "== example: build with nvcc from the emitted header"
  start=$(date +%s)
  cmake -S tools/example -B /tmp/example -G Ninja -DSGEMM_TUNED_HEADER=/tmp/tuned/sgemm_tuned.h >/tmp/example-build.log 2>&1 &&
    cmake --build /tmp/example >>/tmp/example-build.log 2>&1
  echo "build exit $?, $(( $(date +%s) - start )) s"; tail -3 /tmp/example-build.log
  /tmp/example/sgemm_tuned_example 4096x4096x4096 1000x1000x1000 4097x513x77 1x1x1 2048x2048x2048 8192x8192x8192
  echo "example exit $?"
  python3 - <<'PY'
import json
b = json.load(open('/tmp/best.json'))
print("database time at 4096^3: %.4f ms (%s)" % (b["config"]["time_ms"], b["selection"]))
PY
} 2>&1 | tee "$OUT/example.txt"

{
  echo "== staleness: the same template with one character added"
  mkdir -p /tmp/edited && cp kernel_templates/*.cuh kernel_templates/*.h /tmp/edited/ && echo " " >>/tmp/edited/sgemm_double_buffered.cuh
  "$TUNE" stale --db "$OUT/tune.db"
  "$TUNE" stale --db "$OUT/tune.db" --template-dir /tmp/edited
  "$TUNE" best --db "$OUT/tune.db" --shape 4096x4096x4096 --template-dir /tmp/edited
  echo "== re-search the stale shapes with the edited template"
  start=$(date +%s)
  timeout -s INT 200 "$TUNE" --space search_spaces/4096.json --db "$OUT/tune.db" --template-dir /tmp/edited --stale --quiet --top 3
  echo "re-search exit $?, $(( $(date +%s) - start )) s"
  "$TUNE" stale --db "$OUT/tune.db" --template-dir /tmp/edited
  "$TUNE" --space search_spaces/4096.json --db "$OUT/tune.db" --template-dir /tmp/edited --stale --quiet
  python3 -c "import sqlite3; c = sqlite3.connect('$OUT/tune.db'); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); print('runs:', c.execute('SELECT id, template_hash, status FROM runs').fetchall())"
} 2>&1 | tee "$OUT/stale.txt"
