#!/usr/bin/env bash
# GPU session 6, last call (2026-11-30): the skewed A layout with the K steps walked in its
# groups of four (so that NVRTC proves the A rows' alignment and loads vectors), paired
# against the padded rows (.device/old/sgemm-tune, built at 056ea66) in ABBA order over the
# leading structures at 4096^3; the GPU tests; the staged 4096 search; a quick suite run.
source "$(dirname "$0")/session_common.sh"
OLD=$PWD/.device/old/sgemm-tune
OUT=$OUT tools/gpu_session.sh | tail -3
tune_with() {  # tune_with BINARY DB
  SGEMM_TUNE_BINARY=$1 timeout 150 "$1" --space bench/experiments/leading_4096.json --db "$2" --top 3 2>"$2.log" | tail -4
}
{
  tune_with "$OLD" /tmp/a1.db; tune_with "$TUNE" /tmp/b1.db
  tune_with "$TUNE" /tmp/b2.db; tune_with "$OLD" /tmp/a2.db
  python3 bench/experiments/paired.py /tmp/a1.db /tmp/b1.db "skewed A layout, grouped K steps, round 1"
  python3 bench/experiments/paired.py /tmp/a2.db /tmp/b2.db "skewed A layout, grouped K steps, round 2"
} >"$OUT/paired.txt" 2>&1
grep -E "^ +1 |skewed A layout" "$OUT/paired.txt"
timeout 120 "$TUNE" --space search_spaces/4096.json --db /tmp/staged.db --top 10 2>"$OUT/staged.log" >"$OUT/staged.txt"
head -14 "$OUT/staged.txt" | tail -8
SPACE=bench/experiments/suite_quick.json OUT=$OUT tools/bench_suite.sh 150 | tail -11
rm -f "$OUT/suite.db" "$OUT/suite-tune.log"
