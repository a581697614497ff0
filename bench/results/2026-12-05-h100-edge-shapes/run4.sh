#!/usr/bin/env bash
# Call 4 (H100): the same two headers timed with bench_shapes --graphs, each side's round of
# calls replayed as one CUDA graph, so that the host's time between calls is out of the
# figure. Call 2 left two questions this answers: whether the products under about 20 us,
# whose cuBLAS times moved up to 1.5x between processes (and up to 5x in single problems),
# are steadier as GPU time; and how much of the random set's ratio is the host's time per
# call rather than the kernels (ncu, call 2: 1009x114x140 col TT took 8.7 us of GPU time on
# cuBLAS, 11.5-12.8 us a call back to back). A, B, A, B at seed 1 with graphs, A at seed 1
# without (the control, as calls 1-2 timed), A and B at seed 2 with graphs, A at seed 1
# measured with graphs. Carry [".device"]: devbin.tgz of the programs built on this tree.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L"
one() {  # one() HEADER SEED DISPATCH [--graphs]
  local log=$L/$1-seed$2-$3${4:+-graphs}-$(date +%s).txt
  timeout 90 ".device/bench_shapes-$1" --seed "$2" --count 48 --dispatch "$3" ${4:-} >"$log" 2>&1
  echo "$1 seed $2 $3 ${4:-stream} exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$G"
  grep -E "^worst| named |capture failed" "$log" | cut -c1-140 | tee -a "$G"
}
one A 1 predicted --graphs
one B 1 predicted --graphs
one A 1 predicted --graphs
one B 1 predicted --graphs
one A 1 predicted
one A 2 predicted --graphs
one B 2 predicted --graphs
one A 1 measured --graphs
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
