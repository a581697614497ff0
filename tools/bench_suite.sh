#!/usr/bin/env bash
# The shape-suite benchmark: tune search_spaces/suite.json, emit a header from the result,
# build tools/example with it, and run every suite shape through the tuned kernels and
# cuBLAS side by side on the same inputs, both verified. Logs under OUT.
#   OUT=/tmp/out tools/bench_suite.sh [TUNE-TIME-LIMIT-SECONDS]
set -uo pipefail
cd "$(dirname "$0")/.."
: "${OUT:?set OUT to the folder for logs}"
BIN=${BIN:-.device}
limit=${1:-600}
mkdir -p "$OUT" /tmp/suite
echo "binaries built at commit: $(cat "$BIN/COMMIT" 2>/dev/null || echo unknown)" | tee "$OUT/suite.txt"
start=$(date +%s)
SPACE=${SPACE:-search_spaces/suite.json}
timeout -s INT "$limit" "$BIN/sgemm-tune" --space "$SPACE" --db "$OUT/suite.db" --top 3 \
  >"$OUT/suite-tune.txt" 2>"$OUT/suite-tune.log"
echo "tune exit $?, $(( $(date +%s) - start )) s" | tee -a "$OUT/suite.txt"
"$BIN/sgemm-tune" emit --db "$OUT/suite.db" --out /tmp/suite/sgemm_tuned.h 2>&1 | tee -a "$OUT/suite.txt"
cmake -S tools/example -B /tmp/suite/example -G Ninja -DSGEMM_TUNED_HEADER=/tmp/suite/sgemm_tuned.h >/tmp/suite/build.log 2>&1 &&
  cmake --build /tmp/suite/example >>/tmp/suite/build.log 2>&1 || { tail -5 /tmp/suite/build.log; exit 1; }
shapes=$(python3 -c "import json, sys; print(' '.join(json.load(open(sys.argv[1]))['shapes']))" "$SPACE")
/tmp/suite/example/sgemm_tuned_example $shapes 2>&1 | tee -a "$OUT/suite.txt"
python3 -c "import sqlite3; c = sqlite3.connect('$OUT/suite.db'); c.execute('PRAGMA wal_checkpoint(TRUNCATE)')"
