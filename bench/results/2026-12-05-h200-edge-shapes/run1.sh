#!/usr/bin/env bash
# Call 1. Two tunings by this tree's sgemm-tune: search_spaces/workload.json (A) and
# bench/experiments/workload_edges.json (B: two of A's shapes replaced by products no tile
# divides, 3100x2900x3000:NN and 1100x900x1000:NN, timed on the edge kernel's plain body,
# on the finalists only). A stops at 100 s, B at 300 s (SIGINT: its results so far are
# kept and the same command resumes it; estimated 2-3 minutes on 16 cores). The databases
# come back, and a copy stays here for call 2 (run2_on_device.sh).
# Carry [".device"]: devbin.tgz (sgemm-tune, sgemm_tune_gpu_tests).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
T0=$(date +%s)
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
mkdir -p "$OUT/logs"
tune() {  # NAME SPACE SECONDS
  mkdir -p "$OUT/logs/tune-$1"
  timeout -s INT "$3" .device/sgemm-tune --space "$2" --db "$OUT/tune-$1.db" --top 3 \
    >"$OUT/logs/tune-$1/tune.txt" 2>"$OUT/logs/tune-$1/tune.log"
  echo "tune $1 ($2) exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
  grep -E "^stage|elapsed" "$OUT/logs/tune-$1/tune.log" | tail -2 | tee -a "$OUT/gpu.txt"
  grep -E "^(candidates|search|compile|wall):" "$OUT/logs/tune-$1/tune.txt" | tee -a "$OUT/gpu.txt"
  python3 -c "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(TRUNCATE)')" "$OUT/tune-$1.db"
}
tune A search_spaces/workload.json 100
tune B bench/experiments/workload_edges.json 300
for v in A B; do
  echo "== $v: best per shape" | tee -a "$OUT/gpu.txt"
  grep -E "^[0-9]+x[0-9]+x[0-9]+.*cuBLAS" -A2 "$OUT/logs/tune-$v/tune.txt" | grep -vE "rank|^--" | cut -c1-120 | tee -a "$OUT/gpu.txt"
done
# A copy stays on the GPU machine for call 2 (run2_on_device.sh), if it is still warm then.
mkdir -p build-edge-shapes && cp "$OUT"/tune-A.db "$OUT"/tune-B.db build-edge-shapes/
gzip -9 "$OUT"/tune-A.db "$OUT"/tune-B.db
echo "done after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$OUT/logs"
