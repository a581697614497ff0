#!/usr/bin/env bash
# Call 2. Where a small product's time goes, and splits as clusters through the header:
#  1. bench/experiments/host_overhead (built on the CPU machine against call 1's header, with
#     clusters and with SGEMM_TUNE_NO_CLUSTER_SPLIT): host time per call and burst time per
#     call of sgemm_tuned, cublasSgemm and an empty kernel's launch, two rounds each.
#  2. tools/bench_shapes built here twice from call 1's header (H.h): A with splits of K as
#     clusters, B with -DSGEMM_TUNE_NO_CLUSTER_SPLIT (the scale pass, priced so); run in
#     alternating order, two rounds of seeds 1 and 2 (predicted dispatch).
# Carry [".device"] (H.h.xz, ho_cluster, ho_pass).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
T0=$(date +%s)
xz -dkf .device/ho_cluster.xz .device/ho_pass.xz && chmod +x .device/ho_cluster .device/ho_pass
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
for round in 1 2; do
  for v in ho_cluster ho_pass; do
    timeout 60 ".device/$v" >"$OUT/$v-round$round.txt" 2>&1
    echo "$v round $round exit $?" >>"$OUT/gpu.txt"
  done
done
cat "$OUT"/ho_*-round1.txt | tee -a "$OUT/gpu.txt"
xz -dkf .device/H.h.xz
work=/tmp/two
build() {  # NAME EXTRA-CUDA-FLAGS
  { cmake -S tools/bench_shapes -B "$work/$1" -G Ninja -DSGEMM_TUNED_HEADER="$PWD/.device/H.h" \
      -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_FLAGS="$2" && cmake --build "$work/$1"; } >"$OUT/build-$1.log" 2>&1
  echo "build $1 exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
}
build A "" &
build B "-DSGEMM_TUNE_NO_CLUSTER_SPLIT" &
wait
for round in 1 2; do
  order="A B"; [[ $round -eq 2 ]] && order="B A"
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
print("clusters (B time / A time; above 1: A, splits as clusters, faster)")
for seed in (1, 2):
    for rnd in (1, 2):
        a = load(os.path.join(out, "A-seed%d-round%d.txt" % (seed, rnd)))
        b = load(os.path.join(out, "B-seed%d-round%d.txt" % (seed, rnd)))
        parts = []
        for group in ("random", "suite", "named"):
            r = [b[k].ms / a[k].ms for k in a if k in b and a[k].set == group]
            parts.append("%s %.3f" % (group, gmean(r)))
        small = [b[k].ms / a[k].ms for k in a if k in b and a[k].set == "random" and a[k].cublas_ms < 0.03]
        parts.append("random under 30 us of cuBLAS %.3f over %d" % (gmean(small), len(small)))
        print("  seed %d round %d: %s" % (seed, rnd, ", ".join(parts)))
PY
tar czf "$OUT/tables.tgz" -C "$OUT" $(cd "$OUT" && ls *-seed*-round*.txt build-*.log ho_*.txt) && (cd "$OUT" && rm -f *-seed*-round*.txt build-*.log ho_*.txt)
