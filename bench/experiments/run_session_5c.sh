#!/usr/bin/env bash
# GPU session 5, third call (2026-11-30): stall reasons of the best kernel and of cuBLAS;
# two template variants (FFMA order, explicit 128-bit B loads) against the current
# template; pipeline depth 2-4 at every BK.
# Template variants: .device/variants/NAME, built by bench/experiments/make_variant.sh (README.md there).
source "$(dirname "$0")/session_common.sh"
M='regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,smsp__cycles_active.avg,sm__cycles_elapsed.avg.per_second'
{
  echo "== stall reasons: cuBLAS"
  timeout 120 ncu --clock-control none -k regex:'gemm|xmma|cutlass' -c 1 --metrics "$M" \
    "$TUNE" --space bench/experiments/best_only.json --db /tmp/s1.db --quiet --in-process 2>&1 | grep -v "^==PROF==" | grep -v "^\s*$" | tail -40
  echo "== stall reasons: best configuration (prepare pass, compute pass)"
  timeout 120 ncu --clock-control none -k regex:sgemm_double_buffered -c 2 --metrics "$M" \
    "$TUNE" --space bench/experiments/best_only.json --db /tmp/s2.db --quiet --in-process 2>&1 | grep -v "^==PROF==" | grep -v "^\s*$" | tail -45
} >"$OUT/stalls.txt" 2>&1
compare_templates bench/experiments/top_structures.json 6 current ffma_order b_float4
echo "== deep stages"
timeout 150 "$TUNE" --space bench/experiments/deep_stages.json --db "$OUT/deep.db" --top 12 2>"$OUT/deep.log" | tail -16
