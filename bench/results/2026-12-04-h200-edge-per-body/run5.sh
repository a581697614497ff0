#!/usr/bin/env bash
# Call 5. The narrow bodies of the kernel of any operands, paired as call 4 paired the plain
# one: bench/experiments/edge_bodies with EB_ANY=1, 9993018's kernel of any operands (.device/ean,
# reading kOperandNarrowAB at run time) against 14e96a0's sgemm_double_buffered_any_narrow
# (.device/eanv, EB_VARIANT_DIR; compiled with EB_FORM), every launch with kOperandNarrowAB
# (EB_OPERANDS=32: A's and B's accesses 4 bytes wide), B stored transposed, K odd (rows of A
# and B^T not 16-byte aligned), N a multiple of 4 (C aligned), 9 rounds. Outputs tarred: the
# GPU machine returns at most eight files. Carry [".device"]: ean.tgz, eanv.tgz, edge_bodies.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
tar xzf .device/ean.tgz -C .device && tar xzf .device/eanv.tgz -C .device
T1=$(date +%s)
EB_ANY=1 EB_OPERANDS=32 EB_VARIANT_DIR=.device/eanv EB_ROUNDS=9 \
EB_SHAPES=450x144x4095,827x404x319,629x2452x299,2442x120x151,1000x1000x999,512x512x511,2048x2048x2047,256x256x255,1024x1024x1023 \
  timeout 300 .device/edge_bodies run .device/ean $(cat .device/ean/tiles.txt) >"$OUT/edge_bodies_any_narrow.txt" 2>&1
echo "edge_bodies exit $? after $(($(date +%s) - T1)) s; WRONG lines: $(grep -c WRONG "$OUT/edge_bodies_any_narrow.txt")"
python3 bench/results/2026-12-04-h200-edge-per-body/summary.py "$OUT/edge_bodies_any_narrow.txt" | tee "$OUT/summary_any_narrow.txt"
