#!/usr/bin/env bash
# Call 1 (session 43): what unaligned rows of A or B cost at equal shapes. W3a's program
# (../2026-12-06-small-threads-graphs/call3/tune-W3a.db.gz, built on the CPU machine as
# ../2026-12-06-small-threads-graphs/call4.sh's header says) on
# bench/experiments/aligned_twins.txt: seed 1's 38 random problems whose rows of A or B are
# not 16-byte aligned, each as drawn and as its aligned twin (leading dimensions rounded up
# to a multiple of 4, no offset). As graphs: predicted dispatch (two runs), measured
# dispatch, then every choice of the header (sweep) for the best each twin can reach. Then
# ncu on problem 26 of seed 1 (col NN 457x637x981) and its twin, predicted dispatch, the
# tuned kernels only. Carry [".device"] with devbin.tgz holding sgemm-tune and
# bench_shapes-W3a. Under $OUT: gpu.txt, rounds.tgz, sweep-twins.csv.gz, ncu.tgz.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start
P=bench/experiments/aligned_twins.txt
R=$OUT/rounds
mkdir -p "$R"
twins_round() {  # NAME DISPATCH
  local log=$R/W3a-twins-$1.txt
  timeout 90 .device/bench_shapes-W3a --problems "$P" --dispatch "$2" --graphs >"$log" 2>&1
  echo "twins $1 ($2) exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$G"
}
twins_round predicted1 predicted
twins_round measured measured
twins_round predicted2 predicted
tar czf "$OUT/rounds.tgz" -C "$OUT" rounds && rm -rf "$R"
# ncu: one problem a file, so that each profile holds one product's kernels.
mkdir -p "$OUT/ncu"
printf 'col NN 457 637 981 457 981 457 0\n' >/tmp/p-narrow.txt
printf 'col NN 457 637 981 460 984 460 0\n' >/tmp/p-aligned.txt
for v in narrow aligned; do
  timeout 120 ncu --clock-control none --kernel-name regex:sgemm_double_buffered --launch-skip 4 --launch-count 2 \
    --section SpeedOfLight --section LaunchStats --section Occupancy --section SchedulerStats \
    --section WarpStateStats --section MemoryWorkloadAnalysis --section InstructionStats \
    .device/bench_shapes-W3a --problems /tmp/p-$v.txt --dispatch predicted >"$OUT/ncu/$v.txt" 2>&1
  echo "ncu $v exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
done
tar czf "$OUT/ncu.tgz" -C "$OUT" ncu && rm -rf "$OUT/ncu"
left=$((420 - ($(date +%s) - T0)))
if [ "$left" -gt 40 ]; then
  csv=$OUT/sweep-twins.csv
  timeout "$((left + 10))" .device/bench_shapes-W3a --sweep --graphs --problems "$P" --sweep-seconds "$left" >"$csv" 2>&1
  echo "sweep twins exit $? after $(($(date +%s) - T0)) s: $(grep -c '^choice,[0-9]' "$csv") choices; $(tail -1 "$csv")" | tee -a "$G"
  gzip -9 "$csv"
fi
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
