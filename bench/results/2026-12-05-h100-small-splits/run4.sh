#!/usr/bin/env bash
# run1.sh's small_products steps alone (waves, split, pdl: about 4 minutes at most), for a
# call with little device time left. Carry [".device"]: devbin.tgz with small_products.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
source bench/results/2026-12-05-h100-small-splits/steps.sh
call_start  # common.sh: unpack, T0, G, the header
small_products_waves 60
small_products_split 120
small_products_pdl 60
