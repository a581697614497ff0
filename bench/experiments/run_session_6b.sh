#!/usr/bin/env bash
# GPU session 6, second call (2026-11-30): three template variants against the current
# template over the leading structures at 4096^3 (K loop unrolled by 4 and by 16 instead of
# 8; tiles rasterised in panels of 8 tile rows for L2 reuse); stall reasons of the best
# configuration and of cuBLAS; the staged 4096 search at the current commit.
source "$(dirname "$0")/session_common.sh"
compare_templates bench/experiments/leading_4096.json 8 current unroll4 unroll16 raster 2>&1 | tee "$OUT/variants.txt" | grep -E "^==|^ +1 |cuBLAS"
stall_reasons bench/experiments/best_only.json >"$OUT/stalls.txt" 2>&1
grep -E "issue_active|stalled_(dispatch|no_inst|short|long|barrier|math|wait|not_sel|mio)|hit_rate|dram__bytes" "$OUT/stalls.txt" | head -40
timeout 120 "$TUNE" --space search_spaces/4096.json --db /tmp/staged.db --top 10 2>"$OUT/staged.log" | tee "$OUT/staged.txt" | tail -14
