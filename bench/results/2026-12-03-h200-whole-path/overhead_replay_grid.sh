#!/bin/bash
# A block's fixed work counted in time as well as in K slices of its tile, replayed on the
# four sweeps (unpacked into /tmp/sw_*.csv, as rate_replay_grid.sh does), no GPU: overhead_patch.py
# rewrites a copy of sgemm_tuned_select.h so that each block wave costs OVERHEAD_SLICES
# slices plus OVERHEAD_PS picoseconds (converted to slices by the entry's time per slice),
# then tools/replay_sweep is built against it. Output: overhead_replay_grid.txt.
#   overhead_replay_grid.sh OVERHEAD_SLICES OVERHEAD_PS   (today: 3.0 0.0)
set -e
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
d=/tmp/kt_o_$1_$2; rm -rf "$d"; cp -r "$root/kernel_templates" "$d"
python3 "$root/bench/results/2026-12-03-h200-whole-path/overhead_patch.py" "$d/sgemm_tuned_select.h" "$1" "$2"
/usr/local/cuda/bin/nvcc -std=c++17 -O1 -arch=sm_90 -I "$d" "$root/tools/replay_sweep/main.cu" -o "$d/rs"
line="$1 $2"
for s in realigned medium 32wide tail_split; do
  [ -f /tmp/sw_$s.csv ] || zcat "$root/tests/data/sweep_h200_workload_$s.csv.gz" > "/tmp/sw_$s.csv"
  r=$("$d/rs" /tmp/sw_$s.csv --quiet | awk '/chosen now/ {printf "%s %s ", $1, $4}')
  m=$("$d/rs" /tmp/sw_$s.csv --quiet --measured 8 | awk '/random/ {printf "M8 %s", $4}')
  line="$line | $s: $r$m"
done
echo "$line"
rm -rf "$d"
