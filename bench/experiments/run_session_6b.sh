#!/usr/bin/env bash
# GPU session 6, second call (2026-11-30): three template variants against the current
# template over the leading structures at 4096^3 (K loop unrolled by 4 and by 16 instead of
# 8; tiles rasterised in panels of 8 tile rows for L2 reuse); stall reasons of the best
# configuration and of cuBLAS; the staged 4096 search at the current commit.
source "$(dirname "$0")/session_common.sh"
M='regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,smsp__cycles_active.avg,sm__cycles_elapsed.avg.per_second,smsp__issue_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,dram__bytes_read.sum'
compare_templates bench/experiments/leading_4096.json 8 current unroll4 unroll16 raster 2>&1 | tee "$OUT/variants.txt" | grep -E "^==|^ +1 |cuBLAS"
{
  echo "== stall reasons: cuBLAS"
  timeout 120 ncu --clock-control none -k regex:'gemm|xmma|cutlass' -c 1 --metrics "$M" \
    "$TUNE" --space bench/experiments/best_only.json --db /tmp/s1.db --quiet --in-process 2>&1 | grep -v "^==PROF==" | grep -v "^\s*$" | tail -40
  echo "== stall reasons: best configuration (prepare pass, compute pass)"
  timeout 120 ncu --clock-control none -k regex:sgemm_double_buffered -c 2 --metrics "$M" \
    "$TUNE" --space bench/experiments/best_only.json --db /tmp/s2.db --quiet --in-process 2>&1 | grep -v "^==PROF==" | grep -v "^\s*$" | tail -45
} >"$OUT/stalls.txt" 2>&1
grep -E "issue_active|stalled_(dispatch|no_inst|short|long|barrier|math|wait|not_sel|mio)|hit_rate|dram__bytes" "$OUT/stalls.txt" | head -40
timeout 120 "$TUNE" --space search_spaces/4096.json --db /tmp/staged.db --top 10 2>"$OUT/staged.log" | tee "$OUT/staged.txt" | tail -14
