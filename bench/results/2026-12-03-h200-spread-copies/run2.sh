#!/usr/bin/env bash
# Call 2. Issue 12, after call1: each variant against the template as it is, on
# bench/experiments/issue12_neighbours.json at 4096^3, in the order base, the variants,
# the variants backwards, base; and the SASS of the best tile under each (NVRTC cubins
# made on the CPU machine). Where a stage's K steps are walked as blocks of 8, the step is
# b * 8 + j with a block index b (call1's kb + j cost ptxas the pairing of A's reads).
#   peel_a:       the stage's last block of 8 steps apart from the loop, A's transposing
#                 stores of the next stage among its FFMAs, a pass a step; B as the base
#   spread_b2:    B's copies of the next stage spread over the blocks, a pass every other step
#   spread_peel2: both
#   addr_lean:    B's copies at the stage's head as now, addressed from one pointer and one
#                 shared address a stage (a 64-bit step and a constant offset a pass)
#   spread_lean:  spread_b2 with addr_lean's addresses, stepped from pass to pass
#   lean_peel:    spread_lean and peel_a
# Then bench/experiments/l2_cold.json and l2_warm.json (issue 11): the same tiles and shapes
# timed with operand sets rotated past the L2 cache (as the tuner times) and on one set.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
mkdir -p "$OUT/sass" "$OUT/issue12"
cat .device/COMMIT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv | tee "$OUT/gpu.txt"
for c in .device/sass/*.cubin; do cuobjdump -sass "$c" > "$OUT/sass/$(basename "$c" .cubin).sass" 2>&1; done
variants=(peel_a spread_b2 spread_peel2 addr_lean spread_lean lean_peel)
order=(base "${variants[@]}")
for ((k = ${#variants[@]} - 1; k >= 0; --k)); do order+=("${variants[k]}"); done
order+=(base)
i=0
for v in "${order[@]}"; do
  i=$((i + 1))
  dir=(); [ "$v" != base ] && dir=(--template-dir .device/variants/$v)
  start=$(date +%s)
  .device/sgemm-tune --space bench/experiments/issue12_neighbours.json "${dir[@]}" --db "$OUT/issue12/$i-$v.db" \
    --top 40 -q > "$OUT/issue12/$i-$v.txt" 2>&1
  echo "issue12 $i $v exit $? $(( $(date +%s) - start )) s: $(grep -m1 '^     1 ' "$OUT/issue12/$i-$v.txt")"
done
n=${#order[@]}
for ((k = 1; k <= ${#variants[@]}; ++k)); do
  for p in "1 $((k + 1))" "$n $((n - k))"; do
    set -- $p
    a=$(ls "$OUT"/issue12/$1-*.db) b=$(ls "$OUT"/issue12/$2-*.db)
    python3 bench/experiments/paired.py "$a" "$b" "$(basename "$b" .db)" > "$OUT/issue12/paired-$1-$2.txt" 2>&1
    echo "paired $1 $2: $(tail -1 "$OUT/issue12/paired-$1-$2.txt")"
    grep "64, 128, 32, 32, 128, 4, 8, 4, 2, 0, 1" "$OUT/issue12/paired-$1-$2.txt"
  done
done
# Issue 11: whether cuBLAS gains from a warm L2 cache where the tuned kernels do not (the
# example program and the shapes benchmark call one product on the same operands; the
# tuner rotates operand sets past the L2 cache).
mkdir -p "$OUT/l2"
for v in cold warm; do
  .device/sgemm-tune --space bench/experiments/l2_$v.json --db "$OUT/l2/$v.db" --top 5 -q > "$OUT/l2/$v.txt" 2>&1
  echo "l2 $v exit $?"; grep -A3 "cuBLAS" "$OUT/l2/$v.txt" | grep -v "rank"
done
gzip "$OUT"/issue12/*.db "$OUT"/l2/*.db
# At most eight files come back from a call: one archive.
cd "$OUT" && tar czf call2.tgz sass issue12 l2 && rm -rf sass issue12 l2
