#!/usr/bin/env bash
# Call 2. Three programs of tools/bench_shapes on call 1's database, built here by nvcc and
# run in alternating order, two rounds of seeds 1 and 2 (predicted dispatch):
#   A: 50e4e60's kernels and run-time (before edge_launch), call 1's header (B.h);
#   B: this tree's (edge_launch), the same header: A against B is the refactor, paired;
#   C: this tree's, the header emitted with kSmallShapeTie (C.h: at 256^3, 256x256x4096 and
#      1024^3 the tied tile of most blocks): B against C is the tie rule, paired.
# Both headers were emitted on the CPU machine from call 1's shapes.db and travel as xz.
# Carry [".device"] (base/ from tools/pack_for_device.sh --base 50e4e60, B.h.xz, C.h.xz).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
{ date -u; echo "tree $(cat .device/COMMIT), base $(cat .device/base/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
T0=$(date +%s)
xz -dkf .device/B.h.xz .device/C.h.xz
work=/tmp/three
build() {  # NAME SOURCE-TREE HEADER
  { cmake -S "$2/tools/bench_shapes" -B "$work/$1" -G Ninja -DSGEMM_TUNED_HEADER="$PWD/$3" \
      -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build "$work/$1"; } >"$OUT/build-$1.log" 2>&1
  echo "build $1 exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
}
build A .device/base .device/B.h &
build B . .device/B.h &
build C . .device/C.h &
wait
for round in 1 2; do
  order="A B C"; [[ $round -eq 2 ]] && order="C B A"
  for seed in 1 2; do
    for v in $order; do
      timeout 60 "$work/$v/bench_shapes" --seed "$seed" --count 48 --dispatch predicted \
        >"$OUT/$v-seed$seed-round$round.txt" 2>&1
      echo "round $round seed $seed $v exit $?: $(grep '^geometric mean' "$OUT/$v-seed$seed-round$round.txt")" | tee -a "$OUT/gpu.txt"
    done
  done
done
echo "done after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
PYTHONPATH=tools python3 - "$OUT" <<'PY' | tee -a "$OUT/gpu.txt"
import sys, os
from bench_table import gmean, load
out = sys.argv[1]
for a, b, what in (("A", "B", "refactor (A time / B time)"), ("B", "C", "tie rule (B time / C time)")):
    print(what)
    for seed in (1, 2):
        for rnd in (1, 2):
            x = load(os.path.join(out, "%s-seed%d-round%d.txt" % (a, seed, rnd)))
            y = load(os.path.join(out, "%s-seed%d-round%d.txt" % (b, seed, rnd)))
            parts = []
            for group in ("random", "suite", "named"):
                r = [x[k].ms / y[k].ms for k in x if k in y and x[k].set == group]
                parts.append("%s %.3f" % (group, gmean(r)))
            small = [x[k].ms / y[k].ms for k in x if k in y and x[k].set == "random" and x[k].cublas_ms < 0.03]
            parts.append("random under 30 us of cuBLAS %.3f over %d" % (gmean(small), len(small)))
            print("  seed %d round %d: %s" % (seed, rnd, ", ".join(parts)))
PY
tar czf "$OUT/tables.tgz" -C "$OUT" $(cd "$OUT" && ls *-seed*-round*.txt build-*.log) && (cd "$OUT" && rm -f *-seed*-round*.txt build-*.log)
