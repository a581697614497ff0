#!/bin/bash
# The selection's packing constants replayed on four sweeps (tests/data/sweep_h200_workload_*),
# no GPU: a copy of kernel_templates with kNarrowKernelSlowdown, kAnyKernelSlowdown, the
# launch a pack costs and kPackBytesPerPs set as given, tools/replay_sweep built against it,
# and the random set's replayed percent of cuBLAS with the predicted dispatch (P, and the
# oracle) and the measured one of 8 candidates (M8). Output: pack_replay_grid.txt.
#   pack_replay_grid.sh NARROW ANY PACK_LAUNCH_PS PACK_BYTES_PER_PS
# The current constants are 1.15 1.3 4.0e6 2.0.
set -e
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
d=/tmp/kt_g_$1_$2_$3_$4; rm -rf "$d"; cp -r "$root/kernel_templates" "$d"
f=$d/sgemm_tuned_select.h
sed -i "s/constexpr double kNarrowKernelSlowdown = 1.15;/constexpr double kNarrowKernelSlowdown = $1;/; s/constexpr double kAnyKernelSlowdown = 1.3;/constexpr double kAnyKernelSlowdown = $2;/; s/constexpr double kPackBytesPerPs = 2.0;/constexpr double kPackBytesPerPs = $4;/" "$f"
sed -i "s/return floats > 0 ? detail::kLaunchPs + /return floats > 0 ? $3 + /" "$f"
grep -q "kNarrowKernelSlowdown = $1;" "$f" && grep -q "kAnyKernelSlowdown = $2;" "$f" && grep -q "kPackBytesPerPs = $4;" "$f" && grep -q "floats > 0 ? $3 +" "$f"
/usr/local/cuda/bin/nvcc -std=c++17 -O1 -arch=sm_90 -I "$d" "$root/tools/replay_sweep/main.cu" -o "$d/rs"
for s in realigned medium 32wide tail_split; do
  [ -f /tmp/sw_$s.csv ] || zcat "$root/tests/data/sweep_h200_workload_$s.csv.gz" > "/tmp/sw_$s.csv"
  p=$("$d/rs" /tmp/sw_$s.csv --quiet | grep random | sed 's/ over.*oracle/ oracle/')
  m=$("$d/rs" /tmp/sw_$s.csv --quiet --measured 8 | grep random | sed 's/random chosen now //; s/ over.*//')
  echo "$1 $2 $3 $4 $s | P: ${p#random chosen now } | M8: $m"
done
