#!/usr/bin/env bash
# GPU session 6, fifth call (2026-11-30): the transposed A tile with K rows in groups of four,
# each group skewed (every row 16-byte aligned, stores still conflict-free), against the
# seed's padded rows (.device/variants/before: kernel_templates/ of 056ea66), twice in ABBA
# order over the leading structures at 4096^3; the GPU tests, the shape suite, and shapes
# that take the bounds-checked kernel, with the new layout.
source "$(dirname "$0")/session_common.sh"
OUT=$OUT tools/gpu_session.sh | tail -4
abba_templates bench/experiments/leading_4096.json "skewed A layout" >"$OUT/a_layout.txt" 2>&1
grep -E "^==|^ +1 |skewed A layout" "$OUT/a_layout.txt"
OUT=$OUT tools/bench_suite.sh 300 | tail -12
/tmp/suite/example/sgemm_tuned_example 1000x1000x1000 4097x513x77 1x1x1 4096x4096x4096 >"$OUT/edge_shapes.txt" 2>&1
echo "edge shapes exit $?"; tail -7 "$OUT/edge_shapes.txt"
rm -f "$OUT/suite.db"  # too large to bring back
