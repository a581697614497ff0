#!/bin/sh
# The browser test of `sgemm-tune report`, as ctest runs it: imports the fixture export into
# a fresh database (made hostile with --hostile), writes its report, and checks the page in
# headless Chromium (check_report.mjs). Exits 77, which ctest reports as skipped, only when
# node, the npm packages (npm ci in tests/browser) or Chromium are missing.
#
#   run_browser_test.sh SGEMM_TUNE HOSTILE_DB_TOOL FIXTURE OUT_DIR NAME [--hostile]
set -eu
tuner=$1 hostile_tool=$2 fixture=$3 out=$4 name=$5 mode=${6:-}
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v node >/dev/null 2>&1; then
  echo "SKIPPED: no node on PATH (apt-get install nodejs npm; then npm ci in tests/browser)"
  exit 77
fi
if [ ! -d "$here/node_modules/playwright-core" ]; then
  echo "SKIPPED: no $here/node_modules (run: npm ci --prefix tests/browser)"
  exit 77
fi
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "SKIPPED: no Chromium at $chromium (apt-get install chromium, or set CHROMIUM)"
  exit 77
fi
mkdir -p "$out"
db=$out/$name.db
rm -f "$db" "$db-wal" "$db-shm" "$out/$name.html" "$out/$name.png"
"$tuner" import --db "$db" "$fixture"
if [ "$mode" = --hostile ]; then "$hostile_tool" "$db"; fi
"$tuner" report --db "$db" --out "$out/$name.html"
exec node "$here/check_report.mjs" "$out/$name.html" "$out/$name.png" $mode
