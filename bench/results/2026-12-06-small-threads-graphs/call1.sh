#!/usr/bin/env bash
# Call 1 (session 42): GS = bench/experiments/workload_small_threads_graphs.json (tiles of 8
# and 16 outputs a thread, timed as graphs, two finalists per shape) tuned here, 210 s at
# most, beside C (search_spaces/workload.json, the shipped space, timed back to back): on an
# H100 the tuning of ../2026-12-06-h200-small-threads/call5, whose program was built on the
# CPU machine and travels as .device/bench_shapes-C; elsewhere C is tuned here (70 s) and
# built here. GS's header is built here while GpuHeader.* runs beside it (its first run since
# schema version 6). Then the random set of seeds 1 and 2, predicted dispatch, as graphs,
# in the order C1 GS1 GS2 C2, and seed 1 with the measured dispatch, GS then C; then, in
# the time left, every choice of GS's header at seed 1's problems (a sweep, as graphs).
# Carry [".device"]: devbin.tgz (sgemm-tune, sgemm_tune_gpu_tests, bench_shapes-C). Under
# $OUT: gpu.txt, tune-GS.db.gz (and tune-C.db.gz where C was tuned here), logs.tgz, the rounds.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
source bench/results/2026-12-05-h100-small-splits/steps.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L" build-edge-shapes
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q "H100 80GB HBM3"; then
  echo "C: the H100 tuning of ../2026-12-06-h200-small-threads/call5, built on the CPU machine" | tee -a "$G"
  c_here=0
else
  rm -f .device/bench_shapes-C
  tune C search_spaces/workload.json 70 build-edge-shapes/tune-C.db
  gzip -9c build-edge-shapes/tune-C.db >"$OUT/tune-C.db.gz"
  c_here=1
fi
tune GS bench/experiments/workload_small_threads_graphs.json 210 build-edge-shapes/tune-GS.db
gzip -9c build-edge-shapes/tune-GS.db >"$OUT/tune-GS.db.gz"
# The small shapes' fastest candidates (us) and their outputs a thread.
python3 - build-edge-shapes/tune-GS.db <<'PY' | tee -a "$G"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for m, n, k in [(256, 256, 256), (128, 1024, 128), (512, 512, 512), (2048, 512, 256), (256, 256, 4096)]:
    rows = db.execute("SELECT bm, bn, bk, wm, wn, wniter, tm, tn, stages, time_ms, cublas_ms FROM results "
                      "WHERE m=? AND n=? AND k=? AND status='ok' ORDER BY time_ms LIMIT 5", (m, n, k)).fetchall()
    if not rows: continue
    # A thread's outputs: its warp's tile over 32 lanes.
    tops = " ".join("%dx%dx%d/w%dx%d/%d/%.2f" % (r[0], r[1], r[2], r[3], r[4], r[3] * r[4] // 32, r[9] * 1e3) for r in rows)
    print("GS %dx%dx%d: cuBLAS %.2f us; %s" % (m, n, k, rows[0][10] * 1e3, tops))
PY
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
( timeout 280 .device/sgemm_tune_gpu_tests --gtest_filter='GpuHeader.*' >"$L/GpuHeader.log" 2>&1
  echo "GpuHeader.* exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
  grep -E "^\[ +(OK|FAILED|SKIPPED) +\]|Failure" "$L/GpuHeader.log" | tee -a "$G" ) &
[ "$c_here" = 1 ] && build_program C &
build_program GS
wait
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
for round in "C 1" "GS 1" "GS 2" "C 2"; do
  graphs_round $round 45
done
for v in GS C; do
  log=$OUT/$v-seed1-measured-graphs.txt
  timeout 60 ".device/bench_shapes-$v" --seed 1 --count 48 --dispatch measured --graphs >"$log" 2>&1
  echo "$v seed 1 measured graphs exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$G"
done
# Every choice GS's header offers for seed 1's problems, timed as graphs, in what time is
# left (tools/replay_sweep refits and replays the selection on it with no GPU).
left=$((560 - ($(date +%s) - T0)))
if [ "$left" -gt 40 ]; then
  csv=$OUT/sweep-graphs-GS-seed1.csv
  timeout "$((left + 10))" .device/bench_shapes-GS --sweep --graphs --seed 1 --count 48 --sweep-seconds "$left" >"$csv" 2>&1
  echo "sweep --graphs GS seed 1 exit $? after $(($(date +%s) - T0)) s: $(grep -c '^choice,[0-9]' "$csv") choices; $(tail -1 "$csv")" | tee -a "$G"
  gzip -9 "$csv"
fi
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
