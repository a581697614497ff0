#!/usr/bin/env bash
# Call 2 (H100): how much of call 1's A-against-B difference is the process rather than the
# header. Call 1 ran B then A once: the products under about 20 us moved up to 1.5x between
# the two processes on both sides (cuBLAS 0.0084 against 0.0128 ms at the same product), where
# the H200's predicted and measured runs of session 33 moved at most 1.12x. Here A, B, A, B at
# seed 1 (predicted dispatch), then A, B at seed 2 and at seed 1 measured; then ncu of 1000^3
# (edge kernel), 1024^3 (fast kernel) and two small products through A's header (ncu_problems.txt).
# Carry [".device"]: devbin.tgz holds bench_shapes-A and bench_shapes-B, built on the CPU
# machine against the headers emitted from call 1's databases, and COMMIT.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs BENCH_SECONDS=60
mkdir -p "$L"
bench_round 1 predicted A B
bench_round 1 predicted A B
bench_round 2 predicted A B
bench_round 1 measured A B
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv | tee -a "$G"
P=bench/results/2026-12-05-h100-edge-shapes/ncu_problems.txt
timeout 120 ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
  --section WarpStateStats --section SchedulerStats --section InstructionStats \
  .device/bench_shapes-A --problems "$P" --verify-only >"$L/ncu-edge-vs-fast.txt" 2>&1
echo "ncu exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
grep -E "^  [a-z_].*\(|Duration|Registers Per|Block Size|Grid Size|Achieved Occupancy|Issue Slots Busy|No Eligible|Executed Ipc A|Warp Cycles Per Issued" \
  "$L/ncu-edge-vs-fast.txt" | cut -c1-150 | tee -a "$G"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
