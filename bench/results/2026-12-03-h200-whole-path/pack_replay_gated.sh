#!/bin/bash
# pack_replay_grid.sh with pack_is_faster gated: the narrow and any-operands slowdowns raised
# to NARROW_BIG and ANY_BIG only for products whose edge kernel is predicted at T_PS or more.
#   pack_replay_gated.sh T_PS NARROW_BIG ANY_BIG   (output: pack_replay_gated.txt)
# Unpacks the sweeps into /tmp/sw_*.csv, as pack_replay_grid.sh does.
set -e
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
d=/tmp/kt_h_$1_$2_$3; rm -rf "$d"; cp -r "$root/kernel_templates" "$d"
f=$d/sgemm_tuned_select.h
python3 - "$f" "$1" "$2" "$3" <<'PY'
import sys
f,t,nb,ab=sys.argv[1:]
s=open(f).read()
old="  const double slowdown = any ? detail::kAnyKernelSlowdown : detail::kNarrowKernelSlowdown;"
new=f"  const double slowdown = edges_ps >= {t} ? (any ? {ab} : {nb}) : (any ? detail::kAnyKernelSlowdown : detail::kNarrowKernelSlowdown);"
assert old in s; open(f,'w').write(s.replace(old,new))
PY
/usr/local/cuda/bin/nvcc -std=c++17 -O1 -arch=sm_90 -I "$d" "$root/tools/replay_sweep/main.cu" -o "$d/rs"
for s in realigned medium 32wide tail_split; do
  [ -f /tmp/sw_$s.csv ] || zcat "$root/tests/data/sweep_h200_workload_$s.csv.gz" > "/tmp/sw_$s.csv"
  p=$("$d/rs" /tmp/sw_$s.csv --quiet | grep random | sed 's/ over.*oracle/ oracle/')
  m=$("$d/rs" /tmp/sw_$s.csv --quiet --measured 8 | grep random | sed 's/random chosen now //; s/ over.*//')
  echo "$1 $2 $3 $s | P: ${p#random chosen now } | M8: $m"
done
