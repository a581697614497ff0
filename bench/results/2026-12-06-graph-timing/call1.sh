#!/usr/bin/env bash
# Call 1 (session 41): the tuner timing as graphs (timing.method "graphs"), first on a GPU.
# 1. Its GPU tests: GpuTimer.* (both methods; a launch that throws under capture) and the
#    pipeline's graphs tuning (its method recorded, its fingerprint its own).
# 2. G: bench/experiments/workload_graphs.json (search_spaces/workload.json timed as graphs)
#    tuned here, 100 s at most. C: search_spaces/workload.json timed back to back; on an
#    H100 the tuning of ../2026-12-06-h200-small-threads/call5 (the same binary's tuner
#    code; tuned in 66 s on an H100 an hour before), elsewhere tuned here first (70 s).
# 3. Both headers built here at once, then the random set of seeds 1 and 2 through both,
#    predicted dispatch, timed as graphs, in the order C1 G1 G2 C2.
# Carry [".device"]: devbin.tgz with sgemm-tune and sgemm_tune_gpu_tests (stripped, built
# at this folder's commit). Under $OUT: gpu.txt, tune-G.db.gz (and tune-C.db.gz where C was
# tuned here), logs.tgz and the four rounds: at most 8 files.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
source bench/results/2026-12-05-h100-small-splits/steps.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L" build-edge-shapes
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
timeout 100 .device/sgemm_tune_gpu_tests \
  --gtest_filter='GpuTimer.*:GpuPipeline.ATuningTimedAsGraphsRecordsItsMethodAndIsNotReusedBackToBack' \
  >"$L/gpu-tests.log" 2>&1
echo "gpu tests exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
grep -E "^\[ +(OK|FAILED|SKIPPED) +\]|^\[  PASSED|Failure" "$L/gpu-tests.log" | tee -a "$G"

if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q "H100 80GB HBM3"; then
  gunzip -c bench/results/2026-12-06-h200-small-threads/call5/tune-C.db.gz >build-edge-shapes/tune-C.db
  echo "C: the H100 tuning of ../2026-12-06-h200-small-threads/call5" | tee -a "$G"
else
  tune C search_spaces/workload.json 70 build-edge-shapes/tune-C.db
  gzip -9c build-edge-shapes/tune-C.db >"$OUT/tune-C.db.gz"
fi
tune G bench/experiments/workload_graphs.json 100 build-edge-shapes/tune-G.db
gzip -9c build-edge-shapes/tune-G.db >"$OUT/tune-G.db.gz"
# The small shapes' fastest candidates either way (us), and how far apart the first ten are.
for v in C G; do
  python3 - "build-edge-shapes/tune-$v.db" "$v" <<'PY' | tee -a "$G"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for m, n, k in [(256, 256, 256), (512, 512, 512), (2048, 512, 256)]:
    rows = db.execute("SELECT bm, bn, bk, wm, wn, tm, tn, stages, time_ms, cublas_ms FROM results "
                      "WHERE m=? AND n=? AND k=? AND status='ok' ORDER BY time_ms LIMIT 10", (m, n, k)).fetchall()
    if not rows: continue
    tops = " ".join("%dx%dx%d/%.2f" % (r[0], r[1], r[2], r[8] * 1e3) for r in rows[:5])
    print("%s %dx%dx%d: cuBLAS %.2f us; first ten %.2f-%.2f us; %s" %
          (sys.argv[2], m, n, k, rows[0][9] * 1e3, rows[0][8] * 1e3, rows[-1][8] * 1e3, tops))
PY
done
build_program C &
build_program G
wait
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
for round in "C 1" "G 1" "G 2" "C 2"; do
  graphs_round $round 45
done
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
