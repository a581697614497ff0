#!/usr/bin/env python3
"""Two bench_shapes tables of the same problems, paired problem by problem.

    compare.py BASE.txt NEW.txt [--list]

Prints, per set (random, suite, named), the geometric mean of base time / new time and of
each side's cuBLAS time / own time (percent of cuBLAS), and, with --list, each problem whose
ratio moved by more than 5%: its shape, both paths and splits, both times. Also the first
calls' total time ("first ms") of each side.
"""
import math
import re
import sys
from collections import defaultdict

ROW = re.compile(r"\s*(\d+) (random|suite|named)\s+(row|col) (\w\w)\s")


def load(path):
    out = {}
    for line in open(path):
        if not ROW.match(line):
            continue
        f = line.split()
        if f[16] != "ok":
            continue
        out[int(f[0])] = {"set": f[1], "what": "%s %s %sx%sx%s" % (f[2], f[3], f[4], f[5], f[6]),
                          "ms": float(f[11]), "cublas": float(f[12]), "path": f[17], "split": f[18],
                          "first": float(f[20]) if len(f) > 20 else float("nan"),
                          "timed": f[21] if len(f) > 21 else "-"}
    return out


def gmean(v):
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")


base, new = load(sys.argv[1]), load(sys.argv[2])
groups = defaultdict(list)
for k in sorted(base):
    if k in new:
        groups[base[k]["set"]].append(k)
for s, ks in groups.items():
    print("%-6s base/new %.3f over %d; base %.1f%% of cuBLAS, new %.1f%%" % (
        s, gmean([base[k]["ms"] / new[k]["ms"] for k in ks]), len(ks),
        100 * gmean([base[k]["cublas"] / base[k]["ms"] for k in ks]),
        100 * gmean([new[k]["cublas"] / new[k]["ms"] for k in ks])))
print("first calls: base %.0f ms, new %.0f ms in all" % (sum(b["first"] for b in base.values()),
                                                          sum(n["first"] for n in new.values())))
if "--list" in sys.argv:
    for k in sorted(base):
        if k in new and abs(math.log(base[k]["ms"] / new[k]["ms"])) > math.log(1.05):
            b, n = base[k], new[k]
            print("%3d %-6s %-22s %.3f  base %-20s %3s %8.4f  new %-20s %3s %8.4f (timed %s, first %.1f ms)" % (
                k, b["set"], b["what"], b["ms"] / n["ms"], b["path"], b["split"], b["ms"], n["path"], n["split"],
                n["ms"], n["timed"], n["first"]))
