#!/usr/bin/env bash
# Call 3. Call 1's sweep ran out of that call's time after 24 problems. Here the program of
# call 2's B (this tree's run-time, call 1's header B.h) is built again and sweeps every
# choice the selection weighs, for seeds 1 and 2 (bench_shapes --sweep, at most 120 s each):
# today's kernels measured choice by choice, for refitting the selection offline
# (tools/replay_sweep). Carry [".device"] (B.h.xz).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
T0=$(date +%s)
xz -dkf .device/B.h.xz
{ cmake -S tools/bench_shapes -B /tmp/sweep -G Ninja -DSGEMM_TUNED_HEADER="$PWD/.device/B.h" \
    -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build /tmp/sweep; } >"$OUT/build.log" 2>&1
echo "build exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
for seed in 1 2; do
  timeout 170 /tmp/sweep/bench_shapes --sweep --sweep-seconds 120 --seed "$seed" --count 48 >"$OUT/sweep-seed$seed.csv" 2>&1
  echo "sweep seed $seed exit $? after $(($(date +%s) - T0)) s: $(tail -n 1 "$OUT/sweep-seed$seed.csv")" | tee -a "$OUT/gpu.txt"
  gzip "$OUT/sweep-seed$seed.csv"
done
