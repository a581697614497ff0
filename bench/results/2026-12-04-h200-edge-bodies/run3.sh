#!/usr/bin/env bash
# Call 3. Where the K remainder's time goes: 1024x1024x1000 took 9% longer than 1024^3
# on the 64 x 128 x 32 tile's edge kernel, tail-split, with the clamped copies of call 2
# (0.0616 against 0.0566 ms) though only one stage of eight in a block is guarded. ncu's
# stall reasons per issued instruction (no_instruction: the instruction cache) of one
# launch of each form, at both shapes.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
cat .device/COMMIT
tar xzf .device/eb.tgz -C .device && tar xzf .device/ebv.tgz -C .device
TILE=$(cut -d' ' -f1 .device/eb/tiles.txt)
start=$(date +%s)
EB_VARIANT_DIR=.device/ebv EB_ROUNDS=1 EB_LAUNCHES=1 EB_SHAPES=1024x1024x1024,1024x1024x1000 timeout 300 \
  ncu --clock-control none --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,gpu__time_duration.sum' \
  .device/edge_bodies run .device/eb $TILE > "$OUT/ncu_stalls.txt" 2>&1
echo "ncu exit $? $(( $(date +%s) - start )) s"
# Call 3 ran this code inline in a heredoc; stalls.py is the same code, kept apart for call 4.
python3 bench/results/2026-12-04-h200-edge-bodies/stalls.py "$OUT/ncu_stalls.txt" | tee "$OUT/stalls_table.txt"
