#!/bin/bash
# The edge kernel of tiles of one or two warps a block (tile_threads <= 64) priced F times what
# the selection predicted, replayed on the four sweeps of tests/data (no GPU): predicted (P)
# named, random and suite, and the random set measured of 8 (M8). Run at 1cb3a14 for F = 1.0
# (today), 1.05, 1.08, 1.1, 1.12, 1.15, 1.2, 1.3 on the non-tail-split predictions; the
# line "tail too" applies it to the tail split as well (what landed). Output:
# two_warp_replay_grid.txt.  usage: two_warp_replay_grid.sh F
# twowarp F: edge predictions of tiles with 2 or fewer warps per block multiplied by F
f=$1; d=/tmp/twowarp/kt_$f; rm -rf $d; cp -r /work/main/kernel_templates $d
python3 - $d/sgemm_tuned_select.h $f <<'PY'
import sys
p,f=sys.argv[1],sys.argv[2]
s=open(p).read()
old="  return edges ? time : time * kFastKernelAdvantage;\n}"
new="  if (edges && tile_threads(e.tile) <= 64) time *= %s;\n  return edges ? time : time * kFastKernelAdvantage;\n}" % f
assert old in s
s=s.replace(old,new); open(p,'w').write(s)
PY
/usr/local/cuda/bin/nvcc -std=c++17 -O1 -arch=sm_90 -I $d /work/main/tools/replay_sweep/main.cu -o $d/rs || exit 1
for s in realigned medium 32wide tail_split; do
  p=$($d/rs /tmp/sw_$s.csv --quiet | grep -E "^(random|named|suite)" | awk '{print $1, $4}' | tr '\n' ' ')
  m=$($d/rs /tmp/sw_$s.csv --quiet --measured 8 | grep random | awk '{print $4}')
  echo "$f $s | P: $p| M8 random: $m"
done
