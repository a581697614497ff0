#!/usr/bin/env bash
# One GPU session: the GPU tests, then tuning runs, with every log written under OUT.
# Runs binaries built elsewhere (carry .device/ to the GPU machine): no compiler needed there.
#
#   OUT=/tmp/out tools/gpu_session.sh [--no-tests] [--test-limit S] [--time-limit S] [--reruns N] -- TUNE-ARGS...
#
# TUNE-ARGS are passed to sgemm-tune; --db and the report go under OUT. --reruns N runs the
# same tuning N more times on the same database and reports how the database grows (a
# re-run that measures nothing new should add almost nothing) and the size of an export.
# Prints a short summary last.
set -uo pipefail
cd "$(dirname "$0")/.."
: "${OUT:?set OUT to the folder for logs}"
mkdir -p "$OUT"
# Binaries: tools/pack_for_device.sh strips them from build/ into .device/ (small enough to carry).
BIN=${BIN:-.device}
# The GPU tests start the measurement worker from this binary.
export SGEMM_TUNE_BINARY=${SGEMM_TUNE_BINARY:-$PWD/$BIN/sgemm-tune}
run_tests=1
limit=480
test_limit=300
reruns=0
while [ $# -gt 0 ]; do
  case "$1" in
    --no-tests) run_tests=0; shift ;;
    --time-limit) limit=$2; shift 2 ;;
    --test-limit) test_limit=$2; shift 2 ;;
    --reruns) reruns=$2; shift 2 ;;
    --) shift; break ;;
    *) break ;;
  esac
done

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "binaries built at commit: $(cat "$BIN/COMMIT" 2>/dev/null || echo unknown)"
  echo "host: $(hostname), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv 2>&1
} | tee "$OUT/session.txt"

if [ "$run_tests" = 1 ]; then
  echo "== GPU tests" | tee -a "$OUT/session.txt"
  SGEMM_TUNE_SOURCE_DIR=$PWD timeout "$test_limit" "$BIN/sgemm_tune_gpu_tests" >"$OUT/gpu_tests.log" 2>&1
  echo "gpu tests exit: $?" | tee -a "$OUT/session.txt"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|tests ran" "$OUT/gpu_tests.log" | tail -8 | tee -a "$OUT/session.txt"
fi

if [ $# -gt 0 ]; then
  echo "== sgemm-tune $*" | tee -a "$OUT/session.txt"
  start=$(date +%s.%N)
  timeout -s INT "$limit" "$BIN/sgemm-tune" "$@" --db "$OUT/tune.db" --top 15 \
    >"$OUT/tune.txt" 2>"$OUT/tune.log"
  rc=$?
  end=$(date +%s.%N)
  echo "tune exit: $rc, wall $(python3 -c "print(round($end - $start, 1))") s" | tee -a "$OUT/session.txt"
  # Fold the write-ahead log into the database file so that one file carries everything.
  python3 -c "import sqlite3; c = sqlite3.connect('$OUT/tune.db'); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.close()" 2>&1
  tail -5 "$OUT/tune.log" >>"$OUT/session.txt"
  cat "$OUT/tune.txt" | tee -a "$OUT/session.txt"
fi

db_size() {
  python3 -c "import sqlite3; c = sqlite3.connect('$OUT/tune.db'); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); \
n = c.execute('SELECT COUNT(*) FROM results').fetchone()[0]; c.close(); import os; \
print(os.path.getsize('$OUT/tune.db'), n)"
}
if [ $# -gt 0 ] && [ "$reruns" -gt 0 ]; then
  read -r size rows <<<"$(db_size)"
  echo "database after run 1: $size bytes, $rows result rows" | tee -a "$OUT/session.txt"
  for i in $(seq 2 $((reruns + 1))); do
    start=$(date +%s.%N)
    timeout -s INT "$limit" "$BIN/sgemm-tune" "$@" --db "$OUT/tune.db" --top 3 >"$OUT/tune_rerun$i.txt" 2>"$OUT/tune_rerun$i.log"
    rc=$?
    end=$(date +%s.%N)
    read -r size2 rows2 <<<"$(db_size)"
    echo "run $i: exit $rc, wall $(python3 -c "print(round($end - $start, 1))") s, database $size2 bytes" \
         "($(python3 -c "print(f'{100 * ($size2 - $size) / $size:+.2f}%')") against run 1), $rows2 result rows" | tee -a "$OUT/session.txt"
    grep -m3 -E "^ +1 |cuBLAS" "$OUT/tune_rerun$i.txt" | tee -a "$OUT/session.txt"
  done
  "$BIN/sgemm-tune" export --db "$OUT/tune.db" --out "$OUT/export.json" 2>>"$OUT/session.txt"
  echo "export of the database: $(stat -c %s "$OUT/export.json") bytes" | tee -a "$OUT/session.txt"
  rm -f "$OUT/export.json"
fi
