#!/usr/bin/env bash
# Call 1. Issue 12: ptxas's --register-usage-level (0..10, default 5) as a freedom of the
# fast kernel. Each level compiles the same template with other register assignments (and
# for some tiles other register counts: 64x128x16 w32x64 WNITER 2 uses 103 registers at
# level 0, 135 at 5). bench/experiments/issue12_neighbours.json at 4096^3 under each level,
# in the order 5 0 10 2 8, then backwards; paired.py compares each level with level 5 at
# both ends.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
mkdir -p "$OUT/issue12"
cat .device/COMMIT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv | tee "$OUT/gpu.txt"
levels=(5 0 10 2 8)
order=("${levels[@]}")
for ((k = ${#levels[@]} - 1; k >= 0; --k)); do order+=("${levels[k]}"); done
i=0
for v in "${order[@]}"; do
  i=$((i + 1))
  start=$(date +%s)
  .device/sgemm-tune --space bench/experiments/issue12_neighbours.json \
    --compile-option=--ptxas-options=--register-usage-level=$v --db "$OUT/issue12/$i-L$v.db" \
    --top 40 -q > "$OUT/issue12/$i-L$v.txt" 2>&1
  echo "issue12 $i L$v exit $? $(( $(date +%s) - start )) s: $(grep -m1 '^     1 ' "$OUT/issue12/$i-L$v.txt")"
done
n=${#order[@]}
for ((k = 1; k < ${#levels[@]}; ++k)); do
  for p in "1 $((k + 1))" "$n $((n - k))"; do
    set -- $p
    a=$(ls "$OUT"/issue12/$1-*.db) b=$(ls "$OUT"/issue12/$2-*.db)
    python3 bench/experiments/paired.py "$a" "$b" "$(basename "$b" .db)" > "$OUT/issue12/paired-$1-$2.txt" 2>&1
    echo "paired $1 $2: $(tail -1 "$OUT/issue12/paired-$1-$2.txt")"
    grep "64, 128, 32, 32, 128, 4, 8, 4, 2, 0, 1" "$OUT/issue12/paired-$1-$2.txt"
  done
done
gzip "$OUT"/issue12/*.db
cd "$OUT" && tar czf call1.tgz issue12 && rm -rf issue12
