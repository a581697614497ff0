#!/usr/bin/env bash
# GPU session 6, last call (2026-11-30): the skewed A layout with the K steps walked in its
# groups of four (so that NVRTC proves the A rows' alignment and loads vectors), paired
# against the padded rows (.device/old/sgemm-tune, built at 056ea66) in ABBA order over the
# leading structures at 4096^3; the GPU tests; the staged 4096 search; a quick suite run.
source "$(dirname "$0")/session_common.sh"
OLD=$PWD/.device/old/sgemm-tune
OUT=$OUT tools/gpu_session.sh | tail -3
abba_binaries "$OLD" bench/experiments/leading_4096.json "skewed A layout, grouped K steps" >"$OUT/paired.txt" 2>&1
grep -E "^ +1 |skewed A layout" "$OUT/paired.txt"
timeout 120 "$TUNE" --space search_spaces/4096.json --db /tmp/staged.db --top 10 2>"$OUT/staged.log" >"$OUT/staged.txt"
head -14 "$OUT/staged.txt" | tail -8
SPACE=bench/experiments/suite_quick.json OUT=$OUT tools/bench_suite.sh 150 | tail -11
rm -f "$OUT/suite.db" "$OUT/suite-tune.log"
