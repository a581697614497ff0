#!/usr/bin/env python3
"""Per-problem base time / new time of a paired run's tables (tools/bench_shapes_paired.sh
output, unpacked from logs.tgz): by_problem.py FOLDER [SET]. One line a problem: the new
program's row, the path and split it ran, both times of round 1 and the ratio of each round."""
import glob
import re
import sys

ROW = re.compile(r'\s*(\d+)\s+\w+\s+\w+\s+\w+(?:\s+\d+){7}\s+([\d.]+)\s+\S+\s+\S+%.*?(tuned-\S+|cublas\S*)\s+(\d+)')


def load(path):
    rows = {}
    for line in open(path):
        m = ROW.match(line)
        if m:
            rows[int(m.group(1))] = (line[:75].strip(), float(m.group(2)), m.group(3), m.group(4))
    return rows


folder = sys.argv[1]
base = [load(f) for f in sorted(glob.glob(f'{folder}/paired-base-seed1-round*.txt'))]
new = [load(f) for f in sorted(glob.glob(f'{folder}/paired-new-seed1-round*.txt'))]
for k in sorted(new[0]):
    ratios = ' '.join(f'{b[k][1] / n[k][1]:.3f}' for b, n in zip(base, new))
    row, _, path, split = new[0][k]
    print(f'{row:75} {path:22} split {split:>3}  base {base[0][k][1]:.4f} new {new[0][k][1]:.4f}  ratios {ratios}')
