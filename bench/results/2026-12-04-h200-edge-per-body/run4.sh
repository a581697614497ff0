#!/usr/bin/env bash
# Call 4. The kernel of any operands as a kernel per body, paired against the one kernel of
# every layout it replaces: bench/experiments/edge_bodies with EB_ANY=1 on two workload
# tiles, 9993018's template (.device/ea: sgemm_double_buffered_any reading A's and B's
# layout at run time) against 14e96a0's (.device/eav, EB_VARIANT_DIR: the plain A's body
# with B transposed compiled in), B stored transposed, unsplit and split to fill the GPU,
# cuBLAS on the same operands, 9 rounds; K a multiple of 4 (B^T's rows aligned: the plain
# body), N a multiple of 4 (C's rows aligned). Carry [".device"]: ea.tgz, eav.tgz, edge_bodies.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
tar xzf .device/ea.tgz -C .device && tar xzf .device/eav.tgz -C .device
T1=$(date +%s)
EB_ANY=1 EB_VARIANT_DIR=.device/eav EB_ROUNDS=9 \
EB_SHAPES=450x144x4096,827x404x320,629x2452x300,2442x120x152,1000x1000x1000,512x512x512,2048x2048x2048,4096x4096x4100,256x256x256,1024x1024x1024 \
  timeout 300 .device/edge_bodies run .device/ea $(cat .device/ea/tiles.txt) >"$OUT/edge_bodies_any.txt" 2>&1
echo "edge_bodies exit $? after $(($(date +%s) - T1)) s; WRONG lines: $(grep -c WRONG "$OUT/edge_bodies_any.txt")"
python3 bench/results/2026-12-04-h200-edge-per-body/summary.py "$OUT/edge_bodies_any.txt" | tee "$OUT/summary_any.txt"
