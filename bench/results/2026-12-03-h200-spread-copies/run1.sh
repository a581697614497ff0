#!/usr/bin/env bash
# Call 1. Issue 12: the fast kernel's B copies of the next stage spread over the K steps of
# the current one (variant spread_b: a pass every other K step of each block of 8; variant
# spread_peel: the same, and the stage's last block of 8 steps peeled so that A's
# transposing stores of the next stage sit among its FFMAs, a pass a step) against the
# template as it is, on bench/experiments/issue12_neighbours.json at 4096^3, in the order
# base spread_b spread_peel spread_peel spread_b base; and the SASS of the best tile under
# each (NVRTC cubins made on the CPU machine).
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
mkdir -p "$OUT/sass" "$OUT/issue12"
cat .device/COMMIT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv | tee "$OUT/gpu.txt"
for c in .device/sass/*.cubin; do cuobjdump -sass "$c" > "$OUT/sass/$(basename "$c" .cubin).sass" 2>&1; done
i=0
for v in base spread_b spread_peel spread_peel spread_b base; do
  i=$((i + 1))
  dir=(); [ "$v" != base ] && dir=(--template-dir .device/variants/$v)
  start=$(date +%s)
  .device/sgemm-tune --space bench/experiments/issue12_neighbours.json "${dir[@]}" --db "$OUT/issue12/$i-$v.db" \
    --top 40 -q > "$OUT/issue12/$i-$v.txt" 2>&1
  echo "issue12 $i $v exit $? $(( $(date +%s) - start )) s: $(grep -m1 '^     1 ' "$OUT/issue12/$i-$v.txt")"
done
for p in "1 2" "6 5" "1 3" "6 4"; do
  set -- $p
  a=$(ls "$OUT"/issue12/$1-*.db) b=$(ls "$OUT"/issue12/$2-*.db)
  python3 bench/experiments/paired.py "$a" "$b" "$(basename "$b" .db)" > "$OUT/issue12/paired-$1-$2.txt" 2>&1
  echo "paired $1 $2: $(tail -1 "$OUT/issue12/paired-$1-$2.txt")"
done
gzip "$OUT"/issue12/*.db
# At most eight files come back from a call: one archive.
cd "$OUT" && tar czf call1.tgz sass issue12 && rm -rf sass issue12
