#!/usr/bin/env bash
# Call 1 (prepared in session 46, not run): where four of the random set's slowest products
# lose to cuBLAS when their rows are aligned, kernel against kernel. With the one-warp price,
# the best choice W3a's header offers reaches 59.8-63.2% of cuBLAS on 760x183x3231 row NN,
# 457x637x981 col NN, 2969x283x557 col TT and 7564x89x135 row NT (H100 sweep,
# ../2026-12-06-h200-one-warp-price/call1), and their aligned twins ran at 67.2-76.6%
# (rounds of the same call): the kernels, not the rows or the choice, hold them back.
# ncu profiles every kernel of one verify-only run of each aligned twin through the header
# with the one-warp price (bench_shapes-sel: its edge kernel, any scale pass or packing, and
# cuBLAS's kernels for the same product), one problem a file: launch statistics, occupancy,
# issue slots, warp states (stall reasons), instruction mix and memory throughput. Then the
# same problems timed as graphs (predicted dispatch), for their figures on this GPU.
# Carry [".device"] with devbin.tgz holding bench_shapes-sel, built as
# ../2026-12-06-h200-one-warp-price/RUN.md's call 1 says (W3a's database, this tree's templates).
# The fill and error kernels of the program are profiled too (cheap); 40 launches cover a
# problem's. Under $OUT: gpu.txt, ncu.tgz, round.txt. About 4 minutes.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start
mkdir -p "$OUT/ncu"
P=/tmp/worst-aligned.txt
cat >"$P" <<'LIST'
row NN 760 183 3231 3232 184 184 0
col NN 457 637 981 460 984 460 0
col TT 2969 283 557 600 308 2976 0
row NT 7564 89 135 136 136 92 0
LIST
# PROFILE_PROBLEMS=N profiles the first N only (a call short of device time).
head -n "${PROFILE_PROBLEMS:-4}" "$P" >"$P.run"
i=0
while read -r line; do
  i=$((i + 1))
  echo "$line" >"/tmp/worst-$i.txt"
  timeout 150 ncu --clock-control none --launch-count 40 \
    --section SpeedOfLight --section LaunchStats --section Occupancy --section SchedulerStats \
    --section WarpStateStats --section InstructionStats --section MemoryWorkloadAnalysis \
    .device/bench_shapes-sel --problems "/tmp/worst-$i.txt" --verify-only >"$OUT/ncu/problem-$i.txt" 2>&1
  echo "ncu problem $i ($line) exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
done <"$P.run"
tar czf "$OUT/ncu.tgz" -C "$OUT" ncu && rm -rf "$OUT/ncu"
timeout 60 .device/bench_shapes-sel --problems "$P" --graphs --dispatch predicted >"$OUT/round.txt" 2>&1
echo "round exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$OUT/round.txt" | tr '\n' ' ')" | tee -a "$G"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
