#!/usr/bin/env bash
# One call in place of run1.sh and run2.sh, for a session with device time for one machine
# start only: small_products waves and split (run1.sh's first two steps), then run2.sh's
# question in short: S (bench/experiments/workload_small_threads.json) tuned for 120 s, its
# header built, and the random set of seed 1 through W and S timed as graphs. W is session
# 37's tuning of search_spaces/workload.json (bench_shapes-A) on an H100, else tuned here
# for 70 s first. Each step writes straight under $OUT, so a call cut off at its limit
# keeps what ran. Carry [".device"]: devbin.tgz with small_products, bench_shapes-A and
# sgemm-tune.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L" build-edge-shapes
timeout 60 .device/small_products waves >"$OUT/waves.txt" 2>&1
echo "small_products waves exit $? after $(($(date +%s) - T0)) s: $(grep -m1 '^clusters at once' "$OUT/waves.txt")" | tee -a "$G"
grep -E " (clusters|scale|refused) " "$OUT/waves.txt" | awk '{print $1, $2, $3, $4, $6, $8}' | tee -a "$G"
timeout 100 .device/small_products split >"$OUT/split.txt" 2>&1
echo "small_products split exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q "H100 80GB HBM3"; then
  cp .device/bench_shapes-A .device/bench_shapes-W
else
  tune W search_spaces/workload.json 70 build-edge-shapes/tune-W.db
  gzip -9c build-edge-shapes/tune-W.db >"$OUT/tune-W.db.gz"
  build_program W &
fi
tune S bench/experiments/workload_small_threads.json 120 build-edge-shapes/tune-S.db
gzip -9c build-edge-shapes/tune-S.db >"$OUT/tune-S.db.gz"
build_program S
wait
for v in W S; do
  log=$OUT/$v-seed1-graphs.txt
  timeout 40 ".device/bench_shapes-$v" --seed 1 --count 48 --dispatch predicted --graphs >"$log" 2>&1
  echo "$v seed 1 graphs exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$G"
  grep -E "^worst| named " "$log" | cut -c1-140 | tee -a "$G"
done
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
