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
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L"
tune A search_spaces/workload.json 100 "$OUT/tune-A.db"
tune B bench/experiments/workload_edges.json 300 "$OUT/tune-B.db"
# A copy stays on the GPU machine for call 2 (run2_on_device.sh), if it is still warm then.
mkdir -p build-edge-shapes && cp "$OUT"/tune-A.db "$OUT"/tune-B.db build-edge-shapes/
gzip -9 "$OUT"/tune-A.db "$OUT"/tune-B.db
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
