#!/usr/bin/env python3
"""Call 1's attribution, from call1/factors/shapes.txt and call1/factors/sweep.csv.gz:
each op pair's geometric mean ratio to cuBLAS, aligned (wide), with A's and B's rows
unaligned (nAB) and one float off (off1), its tuned and cuBLAS times against the aligned NN
product of the same shape; then, choice by choice in the sweep (same entry, kernel and
split), nAB / wide and off1 / nAB times by kernel and split.
  python3 factors.py [FOLDER]   (default call1)"""
import collections, csv, gzip, math, os, sys

folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "call1")
gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
names = ["wide", "nAB", "off1"]
d = {}
for line in open(os.path.join(folder, "factors", "shapes.txt")):
    p = line.split()
    if len(p) > 12 and p[1] == "listed":
        d[((p[4], p[5], p[6]), p[3], (int(p[0]) - 1) % 3)] = (float(p[11]), float(p[12]))
print("through the header (measured dispatch): ratio to cuBLAS; tuned and cuBLAS time / aligned NN's")
for ops in ["NN", "TN", "NT", "TT"]:
    cells = []
    for v in range(3):
        ks = [k for k in d if k[1] == ops and k[2] == v]
        cells.append("%s %.1f%% tuned x%.3f cuBLAS x%.3f" % (
            names[v], 100 * gm([d[k][1] / d[k][0] for k in ks]),
            gm([d[k][0] / d[(k[0], "NN", 0)][0] for k in ks]), gm([d[k][1] / d[(k[0], "NN", 0)][1] for k in ks])))
    print(ops, " | ".join(cells))
t = {}
with gzip.open(os.path.join(folder, "factors", "sweep.csv.gz"), "rt") as f:
    for r in csv.reader(l for l in f if l.startswith("choice,") and not l.startswith("choice,problem")):
        p, ops, M, N, K, entry, kernel, splits, ms = int(r[1]), r[4], r[5], r[6], r[7], r[16], r[17], int(r[18]), r[20]
        t[((M, N, K, ops, entry, kernel, splits), (p - 1) % 3)] = float(ms)
agg = collections.defaultdict(list)
for (key, v), ms in t.items():
    kind = "tail split" if key[6] == 0 else "unsplit" if key[6] == 1 else "split 2-4" if key[6] <= 4 else "split >4"
    if v == 1 and (key, 0) in t:
        agg[("nAB / wide", key[5], kind)].append(ms / t[(key, 0)])
    if v == 2 and (key, 1) in t:
        agg[("off1 / nAB", key[5], kind)].append(ms / t[(key, 1)])
print("the sweep, choice by choice (same entry, kernel and split): time ratio, geometric mean")
for k in sorted(agg):
    print("  %-10s %-6s %-10s %5d choices x%.3f" % (k + (len(agg[k]), gm(agg[k]))))
