#!/usr/bin/env bash
# Call 3. Has main lost speed since session 31's call 3 measured the random set at 105.6%
# (seed 1) and 94.2% (seed 2), predicted dispatch, at 95cbe0b? The same header (session 31's
# call 1: bench/results/2026-12-04-h200-cluster-split/call1/tune/sgemm_tuned.h.xz, NVRTC
# machine code) built into tools/bench_shapes twice, here (it needs more memory than the CPU
# machine has): X with 95cbe0b's run-time and program (.device/old-tree, git archive of
# tools/paired_base_paths.sh's paths), Y with main's (92e5b16); then X and Y in alternating
# order, two rounds of seeds 1 and 2. Carry [".device"].
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
T0=$(date +%s)
{ date -u; echo "X: 95cbe0b, Y: $(git rev-parse --short HEAD 2>/dev/null || echo main)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
mkdir -p "$OUT/logs"
xz -dc bench/results/2026-12-04-h200-cluster-split/call1/tune/sgemm_tuned.h.xz >/tmp/H.h
build() {  # NAME TREE
  { cmake -S "$2/tools/bench_shapes" -B "/tmp/$1" -G Ninja -DSGEMM_TUNED_HEADER=/tmp/H.h \
      -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build "/tmp/$1"; } >"$OUT/logs/build-$1.log" 2>&1
  echo "build $1 exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
}
build X "$PWD/.device/old-tree" &
build Y "$PWD" &
wait
for round in 1 2; do
  # The second round only where the session's device time allows it.
  [[ $round -eq 2 && $(($(date +%s) - T0)) -gt 300 ]] && { echo "round 2 skipped: out of time" | tee -a "$OUT/gpu.txt"; break; }
  order="X Y"; [[ $round -eq 2 ]] && order="Y X"
  for seed in 1 2; do
    for v in $order; do
      timeout 60 "/tmp/$v/bench_shapes" --seed "$seed" --count 48 --dispatch predicted \
        >"$OUT/logs/$v-seed$seed-round$round.txt" 2>&1
      echo "round $round seed $seed $v exit $?: $(grep '^geometric mean' "$OUT/logs/$v-seed$seed-round$round.txt")" | tee -a "$OUT/gpu.txt"
    done
  done
done
PYTHONPATH=tools python3 - "$OUT/logs" <<'PY' | tee -a "$OUT/gpu.txt"
import sys, os
from bench_table import gmean, load
d = sys.argv[1]
print("X time / Y time (above 1: main faster)")
for seed in (1, 2):
    for rnd in (1, 2):
        if not os.path.exists(os.path.join(d, "X-seed%d-round%d.txt" % (seed, rnd))):
            continue
        x = load(os.path.join(d, "X-seed%d-round%d.txt" % (seed, rnd)))
        y = load(os.path.join(d, "Y-seed%d-round%d.txt" % (seed, rnd)))
        parts = []
        for group in ("random", "suite", "named"):
            r = [x[k].ms / y[k].ms for k in x if k in y and x[k].set == group]
            parts.append("%s %.3f" % (group, gmean(r)))
        print("  seed %d round %d: %s" % (seed, rnd, ", ".join(parts)))
PY
echo "done after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$OUT/logs"
