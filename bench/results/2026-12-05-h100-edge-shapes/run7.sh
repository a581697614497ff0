#!/usr/bin/env bash
# Call 7 (H100): bench/experiments/small_products floor (built on the CPU machine): the fixed
# cost of one call of the edge kernel (64 x 64 x 32) against an empty launch and cuBLAS, over
# K, at one tile and at a wave of 132 tiles, in stream and in graph replay.
# Carry [".device"]: devbin.tgz with small_products.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
timeout 240 .device/small_products floor >"$OUT/floor.txt" 2>&1
echo "small_products floor exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
cat "$OUT/floor.txt" | tee -a "$G"
