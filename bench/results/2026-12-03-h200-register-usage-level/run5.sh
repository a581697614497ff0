#!/usr/bin/env bash
# Call 5. Level 10 as a fixed NVRTC option: the GPU tests of the pipeline and of several
# devices (GpuPipeline.*, GpuDevices.*), then search_spaces/4096.json tuned (staged) with
# no extra option, its compile options and best rows.
# Carry [".device"] (tools/pack_for_device.sh at the commit that makes the option fixed).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune
T0=$(date +%s)
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
timeout 200 .device/sgemm_tune_gpu_tests --gtest_filter='GpuPipeline.*:GpuDevices.*' >"$OUT/gpu_tests.log" 2>&1
echo "GPU tests exit $? after $(($(date +%s) - T0)) s"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" "$OUT/gpu_tests.log" | tail -n 6
timeout 120 .device/sgemm-tune --space search_spaces/4096.json --db "$OUT/4096.db" --top 5 >"$OUT/tune-4096.txt" 2>&1
echo "tune exit $? after $(($(date +%s) - T0)) s"
sqlite3 "$OUT/4096.db" "SELECT compile_options FROM runs" 2>/dev/null ||
  python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT compile_options FROM runs').fetchone()[0])" "$OUT/4096.db"
gzip "$OUT/4096.db"
grep -E "cuBLAS|compile:|^ +rank|^ +[1-5] " "$OUT/tune-4096.txt" | head -10
