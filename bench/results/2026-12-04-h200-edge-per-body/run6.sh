#!/usr/bin/env bash
# Call 6. Why the 32x128x16 narrow body of the kernel of any operands runs slower split (call
# 5): ncu of one launch of each form at 1000x1000x999 (call 5's binaries and cubins,
# EB_ROUNDS=1, EB_LAUNCHES=1, no warm-up), both tiles: duration, achieved occupancy, waves,
# registers, L1 hit rate, issue activity. Carry [".device"]: ean.tgz, eanv.tgz, edge_bodies.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/ean.tgz -C .device && tar xzf .device/eanv.tgz -C .device
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
EB_ANY=1 EB_OPERANDS=32 EB_VARIANT_DIR=.device/eanv EB_ROUNDS=1 EB_LAUNCHES=1 EB_SHAPES=1000x1000x999 \
  timeout 240 "$NCU" --kernel-name regex:sgemm_double_buffered_any --launch-skip 0 \
  --metrics gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__waves_per_multiprocessor,launch__registers_per_thread,launch__occupancy_limit_registers,launch__grid_size,l1tex__t_sector_hit_rate.pct,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_active.min,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct \
  .device/edge_bodies run .device/ean $(cat .device/ean/tiles.txt) >"$OUT/ncu.txt" 2>&1
echo "ncu exit $?"
grep -E "sgemm_double_buffered_any|gpu__time|warps_active|waves|registers_per|grid_size|hit_rate|inst_executed|issue_active|cycles_active|long_scoreboard|lg_throttle|occupancy_limit" "$OUT/ncu.txt" | head -150
