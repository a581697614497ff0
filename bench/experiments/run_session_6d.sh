#!/usr/bin/env bash
# GPU session 6, fourth call (2026-11-30): the GPU tests after their query helper; the SASS of
# the best 4096^3 configuration and ncu's stall samples per SASS instruction of its compute
# pass, to find where the "wait" and "dispatch" stalls that cuBLAS has less of come from.
source "$(dirname "$0")/session_common.sh"
OUT=$OUT tools/gpu_session.sh | tail -4
"$TUNE" --space bench/experiments/best_only.json --db /tmp/best.db --quiet | tail -3
python3 - "$OUT" <<'PY'
import sqlite3, subprocess, sys
name, cubin = sqlite3.connect('/tmp/best.db').execute("select lowered_name, cubin from kernels limit 1").fetchone()
open('/tmp/best.cubin', 'wb').write(cubin)
sass = subprocess.run(['cuobjdump', '-sass', '/tmp/best.cubin'], capture_output=True, text=True).stdout
open(sys.argv[1] + '/best.sass', 'w').write(sass)
print(name, len(sass.splitlines()), 'lines of SASS')
PY
# The compute pass is the second launch of the kernel (the first is the prepare pass).
timeout 180 ncu --clock-control none -k regex:sgemm_double_buffered --launch-skip 1 --launch-count 1 \
  --section SourceCounters --section WarpStateStats -o /tmp/best-prof \
  "$TUNE" --space bench/experiments/best_only.json --db /tmp/prof.db --quiet --in-process >/tmp/ncu.log 2>&1
tail -3 /tmp/ncu.log
ncu --import /tmp/best-prof.ncu-rep --page source --print-source sass --csv >"$OUT/source.csv" 2>"$OUT/source.err"
wc -l "$OUT/source.csv"; head -2 "$OUT/source.csv" | cut -c1-600
