#!/usr/bin/env bash
# GPU session 5, fourth call (2026-11-30): the template with the new FFMA order against a
# serpentine variant over the leading structures, then the staged 4096 search.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?}"
BIN=${BIN:-.device}
TUNE="$PWD/$BIN/sgemm-tune"
export SGEMM_TUNE_BINARY=$TUNE
for variant in current ffma_serpentine; do
  dir=kernel_templates; [ "$variant" = current ] || dir=bench/experiments/$variant
  echo "== top structures, template: $variant"
  timeout 100 "$TUNE" --space bench/experiments/top_structures.json --template-dir "$dir" --db "$OUT/top-$variant.db" \
    --top 6 2>"$OUT/top-$variant.log" | tail -8
done
OUT=$OUT tools/gpu_session.sh --no-tests --time-limit 150 -- --space search_spaces/4096.json | tail -22
