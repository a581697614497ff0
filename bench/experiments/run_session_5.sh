#!/usr/bin/env bash
# GPU session 5 (2026-11-30): what limits the best kernel, against cuBLAS.
#  1. ncu on cuBLAS's 4096^3 SGEMM and on the best tuned configuration (both passes).
#  2. The SASS instruction mix of the best configuration's main loop.
#  3. A template variant (A rows 16-byte aligned) against the current template, over the
#     leading tile structures, in the same session.
# Template variants: .device/variants/NAME, built by bench/experiments/make_variant.sh (README.md there).
source "$(dirname "$0")/session_common.sh"
SECTIONS="--section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section InstructionStats --section SchedulerStats --section ComputeWorkloadAnalysis"
{
  echo "== ncu: cuBLAS (the first GEMM the tuner launches is cuBLAS's baseline)"
  timeout 150 ncu --clock-control none -k regex:'gemm|xmma|cutlass' -c 1 $SECTIONS \
    "$TUNE" --space bench/experiments/best_only.json --db /tmp/p1.db --quiet --in-process 2>&1 | grep -v "^==PROF==" | tail -120
  echo "== ncu: the best configuration"
  timeout 150 ncu --clock-control none -k regex:sgemm_double_buffered -c 2 $SECTIONS \
    "$TUNE" --space bench/experiments/best_only.json --db /tmp/p2.db --quiet --in-process 2>&1 | grep -v "^==PROF==" | tail -150
} >"$OUT/ncu.txt" 2>&1
grep -E "^  [a-zA-Z_].*\(|Registers Per|Block Size|Grid Size|Duration|Issue Slots Busy|Executed Ipc A|No Eligible|Warp Cycles Per Issued|Achieved Occupancy|SM Busy|Dynamic Shared|Theoretical Occ" "$OUT/ncu.txt" | head -60

{
  echo "== SASS of the best configuration"
  python3 - "$OUT" <<'PY'
import sqlite3, sys, subprocess, collections, re
db = sqlite3.connect('/tmp/p2.db')
name, cubin = db.execute("select lowered_name, cubin from kernels limit 1").fetchone()
open('/tmp/best.cubin', 'wb').write(cubin)
sass = subprocess.run(['cuobjdump', '-sass', '/tmp/best.cubin'], capture_output=True, text=True).stdout
open(sys.argv[1] + '/best.sass', 'w').write(sass)
ops = collections.Counter()
for line in sass.splitlines():
    m = re.match(r'\s+/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]+)', line)
    if m: ops[m.group(1).split('.')[0]] += 1
total = sum(ops.values())
print('static instructions:', total)
for op, n in ops.most_common(25): print('%-10s %6d  %5.1f%%' % (op, n, 100.0 * n / total))
PY
} 2>&1 | tee "$OUT/sass_mix.txt"

compare_templates bench/experiments/top_structures.json 12 current a_stride_bm 2>&1 | tee "$OUT/variants.txt"
