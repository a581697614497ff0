#!/usr/bin/env bash
# GPU session 5, second call (2026-11-30): the A-swizzle template variant against the
# current template over the leading tile structures, then the whole staged 4096 search
# with the variant.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?}"
BIN=${BIN:-.device}
TUNE="$PWD/$BIN/sgemm-tune"
export SGEMM_TUNE_BINARY=$TUNE
for variant in current a_swizzle; do
  dir=kernel_templates; [ "$variant" = current ] || dir=bench/experiments/$variant
  echo "== top structures, template: $variant"
  timeout 100 "$TUNE" --space bench/experiments/top_structures.json --template-dir "$dir" --db "$OUT/top-$variant.db" \
    --top 8 2>"$OUT/top-$variant.log" | tail -10
done
echo "== staged 4096 search, template: a_swizzle"
timeout 150 "$TUNE" --space search_spaces/4096.json --template-dir bench/experiments/a_swizzle --db "$OUT/staged-a_swizzle.db" \
  --top 12 2>"$OUT/staged-a_swizzle.log" | tail -16
