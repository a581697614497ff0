#!/usr/bin/env bash
# Call 1 (session 47): bench/experiments/four_warp_worst.json tuned exhaustively (tiles of
# 4 warps with 64 x 64, 64 x 128 and 128 x 64 blocks, and four of W3a's header's tiles, at
# the aligned twins of four of the random set's slowest products as dense row-major NN
# products): does a tile of 4 warps with 32 outputs a thread, like cuBLAS's 64 x 64 x 8 of
# session 17, run them faster than the tiles the header offers? Needs .device/devbin.tgz
# (sgemm-tune of this tree's templates: the call unpacks it). Under $OUT: gpu-fourwarp.txt
# (the summary), tune-fourwarp.db.gz, the tuner's report and log. About 2 minutes on 16
# cores.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start gpu-fourwarp.txt
L=$OUT
rm -f /tmp/fourwarp.db*
# SPACE=bench/experiments/four_warp_worst_mini.json and TUNE_SECONDS for a short call.
tune fourwarp "${SPACE:-bench/experiments/four_warp_worst.json}" "${TUNE_SECONDS:-210}" /tmp/fourwarp.db
gzip -9c /tmp/fourwarp.db >"$OUT/tune-fourwarp.db.gz"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
