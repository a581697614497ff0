#!/usr/bin/env python3
"""Run1's sweep with what its entry lines lack, for tools/replay_sweep: the binaries of run1
(9e4d0c5) printed neither each entry's blocks per SM nor its reference rate. Written out:
  blocks per SM: the tuner's own report of the entry's result (shapes-tune.txt, the rank-1
                 row of the entry's shape, column blk/SM);
  reference:     4096^3, at the rate of the entry's fast kernel in the sweep itself
                 (problem 51, the suite's 4096^3; entry 0's fast kernel was not swept there,
                 so entry 1's, the same tile structure but for BK, stands in).
These are stand-ins for what the database held (run2 onwards print the database's own), so
figures replayed from the result are estimates. Usage:
  python3 augment.py > sweep-augmented.csv   (in this folder)"""
import gzip, re, sys

rank1 = {}
shape = None
for line in open('shapes-tune.txt'):
    m = re.match(r'^(\d+)x(\d+)x(\d+): cuBLAS', line)
    if m:
        shape = tuple(int(x) for x in m.groups())
        continue
    f = line.split()
    if shape and len(f) > 13 and f[0] == '1' and shape not in rank1:
        rank1[shape] = int(f[13])  # blk/SM

lines = gzip.open('sweep.csv.gz', 'rt').read().splitlines()
fast_4096 = {}
for line in lines:
    f = line.split(',')
    if f[0] == 'choice' and f[1] == '51' and f[17] == 'fast':
        fast_4096[int(f[16])] = float(f[20])
fast_4096.setdefault(0, fast_4096[1])

out, i = [], 0
for line in lines:
    f = line.split(',')
    if f[0] == 'entry' and f[1] != 'M':
        blocks = rank1[(int(f[1]), int(f[2]), int(f[3]))]
        tflops = 2 * 4096.0 ** 3 / (fast_4096[i] * 1e-3) / 1e12
        line += ',%d,4096,4096,4096,%.4f' % (blocks, tflops)
        i += 1
    out.append(line)
sys.stdout.write('\n'.join(out) + '\n')
