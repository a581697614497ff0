#!/usr/bin/env bash
# GPU session 6, last call (2026-11-30): the skewed A layout (a7bc7e1) against the padded
# rows, paired: the tuner built at 056ea66 (.device/old/sgemm-tune, its own built-in
# template and tile rules) and the current one, in ABBA order over the leading structures at
# 4096^3; stall reasons of the new best configuration; the staged 4096 search.
source "$(dirname "$0")/session_common.sh"
OLD=$PWD/.device/old/sgemm-tune
abba_binaries "$OLD" bench/experiments/leading_4096.json "skewed A layout" >"$OUT/paired.txt" 2>&1
grep -E "^ +1 |skewed A layout" "$OUT/paired.txt"
stall_reasons bench/experiments/best_only.json >"$OUT/stalls.txt" 2>&1
grep -E "issue_active|stalled_(dispatch|no_inst|short|wait|barrier)|inst_executed|cycles_active" "$OUT/stalls.txt" | tail -9
timeout 120 "$TUNE" --space search_spaces/4096.json --db /tmp/staged.db --top 10 2>"$OUT/staged.log" | tee "$OUT/staged.txt" | tail -14
