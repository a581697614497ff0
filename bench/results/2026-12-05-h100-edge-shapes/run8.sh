#!/usr/bin/env bash
# Call 8 (H100): bench/experiments/small_products stages (built on the CPU machine): the
# edge kernel at 64 x 64 x 32 and 64 x 64 x 16 and 32 x 64 x 16 with 2-4 stages on small
# products and on a wave of 64 x 64 tiles, beside cuBLAS, in stream and in graph replay.
# Carry [".device"]: devbin.tgz with small_products.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
timeout 240 .device/small_products stages >"$OUT/stages.txt" 2>&1
echo "small_products stages exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
cat "$OUT/stages.txt" | tee -a "$G"
