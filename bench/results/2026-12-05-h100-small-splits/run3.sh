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
source bench/results/2026-12-05-h100-small-splits/steps.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L"
small_products_waves 60
small_products_split 100
tune_small_threads 70 120
graphs_round W 1 40
graphs_round S 1 40
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
