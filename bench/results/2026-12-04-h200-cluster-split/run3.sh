#!/usr/bin/env bash
# Call 3. Splits as clusters only where each block has an SM of its own (cluster_split_fits:
# at most 8 ways, tiles x splits <= SMs), the selection priced so. GpuBlas.* and GpuHeader.*
# side by side with two builds of tools/bench_shapes from call 1's header (H.h): A with
# clusters, B with -DSGEMM_TUNE_NO_CLUSTER_SPLIT; then A and B in alternating order, two
# rounds of seeds 1 and 2 (predicted dispatch). Carry [".device"] (devbin.tgz, H.h.xz).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
T0=$(date +%s)
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
mkdir -p "$OUT/tests"
for t in GpuBlas.EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn \
         GpuHeader.EveryPathOfAnEmittedHeaderMatchesCublas; do
  ( timeout 330 .device/sgemm_tune_gpu_tests --gtest_filter="$t" >"$OUT/tests/$t.log" 2>&1
    echo "$t exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt" ) &
done
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
grep -hE "^\[  (PASSED|FAILED) |FAILED  \]" "$OUT"/tests/*.log | tee -a "$OUT/gpu.txt"
grep -h "WRONG\|Failure" -A3 "$OUT"/tests/*.log | head -20 | cut -c1-220 | tee -a "$OUT/gpu.txt"
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
tar czf "$OUT/logs.tgz" -C "$OUT" tests $(cd "$OUT" && ls *-seed*-round*.txt build-*.log) && (cd "$OUT" && rm -rf tests *-seed*-round*.txt build-*.log)
