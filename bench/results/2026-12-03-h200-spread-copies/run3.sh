#!/usr/bin/env bash
# Call 3. Issue 12: why addr_lean (60 fewer instructions a stage, the K loop's 1078
# unchanged, 235 registers) and spread_lean run the best 4096^3 tile 2-5% slower than the
# base: ncu of that tile's compute pass (bench/experiments/issue12_best.json) under each,
# issue slots, instructions and stall reasons per issue.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
cat .device/COMMIT
m=smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__cycles_active.avg
for s in dispatch_stall wait short_scoreboard long_scoreboard barrier mio_throttle lg_throttle no_instruction math_pipe_throttle not_selected; do
  m=$m,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio
done
for v in base addr_lean spread_lean; do
  dir=(); [ "$v" != base ] && dir=(--template-dir .device/variants/$v)
  timeout 150 ncu --clock-control none -c 4 -k regex:sgemm_double_buffered --metrics "$m" \
    .device/sgemm-tune --space bench/experiments/issue12_best.json "${dir[@]}" --in-process --db /tmp/$v.db -q \
    > "$OUT/ncu-$v.txt" 2>&1
  echo "== $v exit $?"
  grep -E "sgemm_double_buffered|issue_active|inst_executed|cycles_active|stalled_(dispatch|wait|short|long|barrier|mio|lg|no_inst|math)" "$OUT/ncu-$v.txt" | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{print $1, $NF}' | tail -14
done
