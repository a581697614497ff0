#!/usr/bin/env bash
# GPU session 5, last call (2026-11-30): the GPU tests and the staged 4096 search at the
# final commit; a header emitted from that database, built with nvcc and run on shapes that
# take the bounds-checked kernel; then the K loop unrolled 8 steps at a time (unroll8.patch)
# against the full unroll, over the leading structures and in the staged search.
# Template variants: .device/variants/NAME, built by bench/experiments/make_variant.sh (README.md there).
source "$(dirname "$0")/session_common.sh"
FINAL=$OUT
OUT=$FINAL tools/gpu_session.sh --time-limit 150 -- --space search_spaces/4096.json | tail -24
{
  mkdir -p /tmp/tuned
  "$TUNE" emit --db "$FINAL/tune.db" --out /tmp/tuned/sgemm_tuned.h
  cmake -S tools/example -B /tmp/example -G Ninja -DSGEMM_TUNED_HEADER=/tmp/tuned/sgemm_tuned.h >/tmp/example-build.log 2>&1 &&
    cmake --build /tmp/example >>/tmp/example-build.log 2>&1 || tail -5 /tmp/example-build.log
  /tmp/example/sgemm_tuned_example 4096x4096x4096 1000x1000x1000 4097x513x77 1x1x1 2048x2048x2048
  echo "example exit $?"
} >"$FINAL/example.txt" 2>&1
tail -9 "$FINAL/example.txt"
rm -f "$FINAL/tune.db"  # too large to bring back with the rest
mkdir -p /tmp/variants-out
OUT=/tmp/variants-out compare_templates bench/experiments/top_structures.json 8 current unroll8 2>&1 | tee "$FINAL/variants.txt"
timeout 120 "$TUNE" --space search_spaces/4096.json --template-dir .device/variants/unroll8 --db /tmp/staged-unroll8.db \
  --top 10 2>/tmp/staged-unroll8.log | tee "$FINAL/staged-unroll8.txt" | tail -14
