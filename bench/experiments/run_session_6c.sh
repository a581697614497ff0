#!/usr/bin/env bash
# GPU session 6, third call (2026-11-30): the kernels' shared thread-placement and fragment
# helpers (detail::thread_place, detail::load_fragments, one shared-memory array), which
# change the fast kernel's code, against the template before them (.device/variants/before:
# kernel_templates/ of b9d3f58), twice in ABBA order over the leading structures at 4096^3;
# the GPU tests and the shape-suite benchmark with the new template.
source "$(dirname "$0")/session_common.sh"
OUT=$OUT tools/gpu_session.sh | tail -4
abba_templates bench/experiments/leading_4096.json "shared helpers" >"$OUT/helpers.txt" 2>&1
grep -E "^==|^ +1 |shared helpers" "$OUT/helpers.txt"
OUT=$OUT tools/bench_suite.sh 300 | tail -12
rm -f "$OUT/suite.db"  # too large to bring back
