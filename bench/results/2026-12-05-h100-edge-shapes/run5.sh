#!/usr/bin/env bash
# Call 5 (H100): where the small products' GPU time goes. Call 4 found them 2-5x cuBLAS's in
# GPU time (graphs), hidden under cuBLAS's host time when called back to back. ncu over
# small_problems.txt through A's header (predicted dispatch, verification calls only): each
# kernel's duration, launch shape, occupancy and warp stalls, ours and cuBLAS's; then the
# same products timed with --graphs under both dispatches. Carry [".device"] as for call 4.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
P=bench/results/2026-12-05-h100-edge-shapes/small_problems.txt
timeout 240 ncu --clock-control none --section SpeedOfLight --section LaunchStats --section Occupancy \
  --section WarpStateStats --section SchedulerStats -o /tmp/small \
  .device/bench_shapes-A --problems "$P" --verify-only >"$OUT/ncu-run.txt" 2>&1
echo "ncu exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
ncu --import /tmp/small.ncu-rep >"$OUT/ncu-small.txt" 2>&1
ncu --import /tmp/small.ncu-rep --page raw --csv >"$OUT/ncu-small-raw.csv" 2>&1
grep -E "^  [a-zA-Z_].*\(|Duration|Grid Size|Block Size|Cluster Size|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|No Eligible" \
  "$OUT/ncu-small.txt" | cut -c1-130 | tee -a "$G"
for d in predicted measured; do
  timeout 60 .device/bench_shapes-A --problems "$P" --graphs --dispatch "$d" >"$OUT/graphs-$d.txt" 2>&1
  echo "graphs $d exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
  grep -E "^ +[0-9]+ " "$OUT/graphs-$d.txt" | cut -c1-150 | tee -a "$G"
done
gzip -9 "$OUT/ncu-small.txt" "$OUT/ncu-small-raw.csv"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
