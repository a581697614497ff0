#!/usr/bin/env bash
# Call 9 (H100): the committed bench/experiments/small_products, all three modes, after its
# rewrite (one timing function, the project's CHECK, fill and event timing); pdl and floor
# repeat calls 6 and 7, and stages adds 32 x 64 x 32 and 32 x 32 x 32 to call 8's tiles.
# Carry [".device"]: devbin.tgz with small_products.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
for mode in stages floor pdl; do
  timeout 120 .device/small_products "$mode" >"$OUT/$mode.txt" 2>&1
  echo "small_products $mode exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
  cat "$OUT/$mode.txt" | tee -a "$G"
done
