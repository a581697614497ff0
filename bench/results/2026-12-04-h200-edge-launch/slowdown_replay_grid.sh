#!/bin/bash
# The selection's kernel slowdowns replayed on call 3's two sweeps (today's kernels) and on
# tests/data's older ones, no GPU: a copy of kernel_templates with kAnyKernelSlowdown,
# kNarrowKernelSlowdown and kFewWarpEdgeSlowdown set as given, tools/replay_sweep built
# against it, each sweep's replayed percent of cuBLAS (predicted dispatch), random set.
#   slowdown_replay_grid.sh ANY NARROW FEW_WARP      (today: 1.3 1.15 1.1)
set -e
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
d=/tmp/kt_s_$1_$2_$3; rm -rf "$d"; cp -r "$root/kernel_templates" "$d"
f=$d/sgemm_tuned_select.h
sed -i "s/constexpr double kAnyKernelSlowdown = 1.3;/constexpr double kAnyKernelSlowdown = $1;/; s/constexpr double kNarrowKernelSlowdown = 1.15;/constexpr double kNarrowKernelSlowdown = $2;/; s/constexpr double kFewWarpEdgeSlowdown = 1.1;/constexpr double kFewWarpEdgeSlowdown = $3;/" "$f"
grep -q "kAnyKernelSlowdown = $1;" "$f" && grep -q "kNarrowKernelSlowdown = $2;" "$f" && grep -q "kFewWarpEdgeSlowdown = $3;" "$f"
/usr/local/cuda/bin/nvcc -std=c++17 -O1 -arch=sm_90 -I "$d" "$root/tools/replay_sweep/main.cu" -o "$d/rs"
line="$1 $2 $3"
for s in new1 new2 realigned medium tail_split; do
  [ -f /tmp/sw_$s.csv ] || zcat "$root/tests/data/sweep_h200_workload_$s.csv.gz" > "/tmp/sw_$s.csv"
  r=$("$d/rs" /tmp/sw_$s.csv --quiet | awk '/^random chosen now/ {printf "%s ", $4}')
  line="$line | $s $r"
done
echo "$line"
rm -rf "$d"
