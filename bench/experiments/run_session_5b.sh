#!/usr/bin/env bash
# GPU session 5, second call (2026-11-30): the A-swizzle template variant against the
# current template over the leading tile structures, then the whole staged 4096 search
# with the variant.
# Template variants: .device/variants/NAME, built by bench/experiments/make_variant.sh (README.md there).
source "$(dirname "$0")/session_common.sh"
compare_templates bench/experiments/top_structures.json 8 current a_swizzle
echo "== staged 4096 search, template: a_swizzle"
timeout 150 "$TUNE" --space search_spaces/4096.json --template-dir .device/variants/a_swizzle --db "$OUT/staged-a_swizzle.db" \
  --top 12 2>"$OUT/staged-a_swizzle.log" | tail -16
