#!/usr/bin/env bash
# The whole experiment in one call, for a session whose device time allows one machine
# start only (session 36: refused starts cost 1,546 of its 1,800 s). A is session 33's
# tuning of search_spaces/workload.json (2026-12-05-h200-realigned/call1/tune-main.db.gz,
# template unchanged since, emit calls none of it stale), carried as .device/tune-A.db.gz;
# B (bench/experiments/workload_edges.json) is tuned here, stopped at 225 s (SIGINT keeps
# what was measured; B_SECONDS=... to change it). A's program builds while B tunes (CPU
# only: nvcc); B's while the GPU tests of the tuning pipeline run (nothing timed for a
# figure meanwhile). Then B's
# self-test and the two headers in alternating order: seeds 1 and 2 predicted, seed 1
# measured (SHORT=1: seed 1 only, for a call with about 550 s of device time). gpu.txt is
# written as it goes, so a call cut off at its limit still tells.
# Carry [".device"]: devbin.tgz (sgemm-tune, sgemm_tune_gpu_tests), tune-A.db.gz.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs BENCH_SECONDS=40
mkdir -p "$L" build-edge-shapes
# A's tuning is an H200's; on another GPU its header would not apply, so A is tuned here
# first (56 s on the H200 in session 33; 80 s at most), B gets 170 s, and one benchmark
# round is left out.
B_SECONDS=${B_SECONDS:-225} ROUNDS=("1 predicted B A" "2 predicted A B" "1 measured B A")
[ "${SHORT:-0}" = 1 ] && B_SECONDS=200 ROUNDS=("1 predicted B A" "1 measured A B")
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  gunzip -c .device/tune-A.db.gz >build-edge-shapes/tune-A.db
else
  tune A search_spaces/workload.json 80 build-edge-shapes/tune-A.db
  gzip -9c build-edge-shapes/tune-A.db >"$OUT/tune-A.db.gz"
  B_SECONDS=170 ROUNDS=("1 predicted B A")
fi
build_program A &
tune B bench/experiments/workload_edges.json "$B_SECONDS" build-edge-shapes/tune-B.db
gzip -9c build-edge-shapes/tune-B.db >"$OUT/tune-B.db.gz"
build_program B &
pipeline_gpu_tests 170  # meanwhile; it waits for the builds too
tar czf "$OUT/logs-tune.tgz" -C "$OUT" logs
timeout "$BENCH_SECONDS" .device/bench_shapes-B --self-test --seed 1 --count 48 >"$L/self-test-B.txt" 2>&1
echo "self-test B exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
for run in "${ROUNDS[@]}"; do
  bench_round $run
done
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L" "$OUT/logs-tune.tgz"
