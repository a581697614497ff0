#!/usr/bin/env bash
# Call 2. (1) Headers from call1's database, built on the CPU machine (tools/example at a4e5013):
# A as emitted, A0 the same with each BLAS entry's M moved by one so
# that no call is an exact match (every product predicted from the same entries and rates);
# the nine shapes through both, A A0 A0 A. (2) Issue 12: the fast kernel's main loop with
# the global addresses of its copies as 64-bit pointers and steps (variants bptr: B's passes;
# ptrs: A's and B's passes and stages) against the template as it is, on
# bench/experiments/issue12_neighbours.json at 4096^3, base bptr ptrs ptrs bptr base; and the
# SASS of the best tile under each (NVRTC cubins made on the CPU machine).
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
mkdir -p "$OUT/example" "$OUT/sass" "$OUT/issue12"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv | tee "$OUT/gpu.txt"
for v in A A0; do gunzip -c .device/exact/example_$v.gz > /tmp/example_$v && chmod +x /tmp/example_$v; done
shapes="1024x1536x512:TT 2746x260x355:TN:col 1164x1102x439:NT 4190x1988x201:TN 457x637x981:NN:col 1000x1000x1000:NN 1000x1000x1000:NT 1024x1024x1024 2048x2048x2048"
i=0
for v in A A0 A0 A; do
  i=$((i + 1))
  /tmp/example_$v $shapes > "$OUT/example/$i-$v.txt" 2>&1
  echo "example $i $v exit $?"
done
for c in .device/sass/*.cubin; do cuobjdump -sass "$c" > "$OUT/sass/$(basename "$c" .cubin).sass" 2>&1; done
i=0
for v in base bptr ptrs ptrs bptr base; do
  i=$((i + 1))
  dir=(); [ "$v" != base ] && dir=(--template-dir .device/variants/$v)
  .device/sgemm-tune --space bench/experiments/issue12_neighbours.json "${dir[@]}" --db "$OUT/issue12/$i-$v.db" \
    --top 40 -q > "$OUT/issue12/$i-$v.txt" 2>&1
  echo "issue12 $i $v exit $? $(grep -m1 '^     1 ' "$OUT/issue12/$i-$v.txt")"
done
for f in "$OUT"/example/*.txt; do echo "== $f"; grep -E "^[0-9]+x|geometric" "$f" | awk '{print $1, $2, $8, $11, $12}'; done
