#!/usr/bin/env bash
# run1.sh's small_products steps alone (waves, split, pdl: about 4 minutes at most), for a
# call with little device time left. Carry [".device"]: devbin.tgz with small_products.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
timeout 60 .device/small_products waves >"$OUT/waves.txt" 2>&1
echo "small_products waves exit $? after $(($(date +%s) - T0)) s: $(grep -m1 '^clusters at once' "$OUT/waves.txt")" | tee -a "$G"
grep -E " (clusters|scale|refused) " "$OUT/waves.txt" | awk '{print $1, $2, $3, $4, $6, $8}' | tee -a "$G"
timeout 120 .device/small_products split >"$OUT/split.txt" 2>&1
echo "small_products split exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
timeout 60 .device/small_products pdl >"$OUT/pdl.txt" 2>&1
echo "small_products pdl exit $? after $(($(date +%s) - T0)) s: $(tail -1 "$OUT/pdl.txt")" | tee -a "$G"
grep -E "no-wait|DIFFERS" "$OUT/pdl.txt" | tee -a "$G"
