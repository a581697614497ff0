#!/bin/bash
# The selection's few-warp rates and block overhead replayed on four sweeps
# (tests/data/sweep_h200_workload_*), no GPU: a copy of kernel_templates with
# kOneWarpPerSchedulerRate, kTwoWarpsPerSchedulerRate and kBlockOverheadSlices set as given,
# tools/replay_sweep built against it, and each sweep's replayed percent of cuBLAS with the
# predicted dispatch: random, named and suite. Output: rate_replay_grid.txt.
#   rate_replay_grid.sh ONE_WARP_RATE TWO_WARP_RATE OVERHEAD_SLICES
# The current constants are 0.45 0.85 3.0 (session 17's refit).
set -e
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
d=/tmp/kt_r_$1_$2_$3; rm -rf "$d"; cp -r "$root/kernel_templates" "$d"
f=$d/sgemm_tuned_select.h
sed -i "s/constexpr double kOneWarpPerSchedulerRate = 0.45;/constexpr double kOneWarpPerSchedulerRate = $1;/; s/constexpr double kTwoWarpsPerSchedulerRate = 0.85;/constexpr double kTwoWarpsPerSchedulerRate = $2;/; s/constexpr double kBlockOverheadSlices = 3.0;/constexpr double kBlockOverheadSlices = $3;/" "$f"
grep -q "kOneWarpPerSchedulerRate = $1;" "$f" && grep -q "kTwoWarpsPerSchedulerRate = $2;" "$f" && grep -q "kBlockOverheadSlices = $3;" "$f"
/usr/local/cuda/bin/nvcc -std=c++17 -O1 -arch=sm_90 -I "$d" "$root/tools/replay_sweep/main.cu" -o "$d/rs"
line="$1 $2 $3"
for s in realigned medium 32wide tail_split; do
  [ -f /tmp/sw_$s.csv ] || zcat "$root/tests/data/sweep_h200_workload_$s.csv.gz" > "/tmp/sw_$s.csv"
  r=$("$d/rs" /tmp/sw_$s.csv --quiet | awk '/chosen now/ {printf "%s %s ", $1, $4}')
  line="$line | $s: $r"
done
echo "$line"
rm -rf "$d"
