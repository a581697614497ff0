#!/usr/bin/env bash
# Call 1c (optional, after call 1, if the session's device time allows about 9 minutes):
# tune C, bench/experiments/workload_edges_ranked.json: B's space with its BLAS shapes in
# the staged search's first stage too, so that the edge body takes part in the ranking;
# every first-stage candidate compiles it. Stops at 480 s (SIGINT keeps what was measured;
# estimated 4-6 minutes on 16 cores). Its database comes back for a third header.
# Carry [".device"]: devbin.tgz (sgemm-tune).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
T0=$(date +%s)
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
mkdir -p "$OUT/logs/tune-C"
timeout -s INT 480 .device/sgemm-tune --space bench/experiments/workload_edges_ranked.json --db "$OUT/tune-C.db" \
  --top 3 >"$OUT/logs/tune-C/tune.txt" 2>"$OUT/logs/tune-C/tune.log"
echo "tune C exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
grep -E "^stage|elapsed" "$OUT/logs/tune-C/tune.log" | tail -2 | tee -a "$OUT/gpu.txt"
grep -E "^(candidates|search|compile):" "$OUT/logs/tune-C/tune.txt" | tee -a "$OUT/gpu.txt"
grep -E "^[0-9]+x[0-9]+x[0-9]+.*cuBLAS" -A2 "$OUT/logs/tune-C/tune.txt" | grep -vE "rank|^--" | cut -c1-120 | tee -a "$OUT/gpu.txt"
python3 -c "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(TRUNCATE)')" "$OUT/tune-C.db"
gzip -9 "$OUT/tune-C.db"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$OUT/logs"
