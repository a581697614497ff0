#!/usr/bin/env python3
"""Per shape, the template variant's edge kernels against the base's, paired (edge_bodies
run with EB_VARIANT_DIR): base time / variant time of each form, per tile and as the
geometric mean over the tiles; last, each form's geometric mean over every shape and tile.
    summary.py edge_bodies.txt"""
import collections
import math
import sys

times = collections.defaultdict(dict)  # (tile, shape) -> form -> ms
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) < 13 or 'x' not in w[7] or w[0] == 'tile':
        continue
    try:
        times[(' '.join(w[:7]), w[7])][w[8]] = float(w[9])
    except ValueError:
        continue
# The forms timed in both templates: edge4, edge1 and their tail splits, or (EB_ANY) any and any_fill.
pairs = [p for p in ['edge4', 'edge1', 'edge4_tail', 'edge1_tail', 'any', 'any_fill']
         if any(p in t and 'v_' + p in t for t in times.values())]
overall = collections.defaultdict(list)
shapes = []
for _, shape in times:
    if shape not in shapes:
        shapes.append(shape)
print(f"{'shape':<18}" + ''.join(f'{p:>12}' for p in pairs) + '   (base ms / variant ms, geometric mean over tiles)')
for shape in shapes:
    row = []
    for p in pairs:
        r = [t[p] / t['v_' + p] for (tile, s), t in times.items() if s == shape and p in t and 'v_' + p in t]
        overall[p] += r
        row.append(math.exp(sum(map(math.log, r)) / len(r)) if r else float('nan'))
    print(f'{shape:<18}' + ''.join(f'{x:12.3f}' for x in row))
def gm(r):
    return math.exp(sum(map(math.log, r)) / len(r)) if r else float('nan')


print(f"{'all':<18}" + ''.join(f'{gm(overall[p]):12.3f}' for p in pairs))
