#!/usr/bin/env python3
"""Paired shapes-benchmark logs split by the kernel each problem ran on.

    by_path.py PAIRED-DIR

PAIRED-DIR holds paired-{base,new}-seed*-round*.txt (tools/bench_shapes_paired.sh). For each
problem: base time / new time per round, and the group of its path in the new version's
log: the kernel of any operands, the edge kernel's narrow bodies (A's or B's rows not
16-byte aligned: a leading dimension of A or B not a multiple of 4, or an offset pointer),
its wide bodies, packing, or the fast kernel. Prints each group's geometric mean.
"""
import glob
import math
import re
import sys
from collections import defaultdict

ROW = re.compile(r"\s+(\d+) (random|suite|named)\s+(row|col) (\w\w)\s")


def load(path):
    out = {}
    for line in open(path):
        if not ROW.match(line):
            continue
        f = line.split()
        out[int(f[0])] = {"set": f[1], "layout": f[2], "ops": f[3], "M": f[4], "N": f[5], "K": f[6],
                          "lda": int(f[7]), "ldb": int(f[8]), "off": int(f[10]), "ms": float(f[11]),
                          "path": f[17]}
    return out


def group(p):
    path = p["path"]
    if "-any-" in path:
        return "any"
    if "-packed-" in path:
        return "packed"
    if "-edge-" in path:
        narrow = p["lda"] % 4 or p["ldb"] % 4 or p["off"] % 4
        return "edge narrow" if narrow else "edge wide"
    return "fast"


def main():
    folder = sys.argv[1]
    ratios = defaultdict(list)  # problem -> base/new per round
    info = {}
    for new_log in sorted(glob.glob(f"{folder}/paired-new-seed*-round*.txt")):
        base = load(new_log.replace("paired-new-", "paired-base-"))
        new = load(new_log)
        for i, p in new.items():
            if i in base:
                ratios[i].append(base[i]["ms"] / p["ms"])
                info[i] = p
    groups = defaultdict(list)
    for i in sorted(ratios):
        p = info[i]
        g = group(p)
        mean = math.exp(sum(math.log(r) for r in ratios[i]) / len(ratios[i]))
        groups[g].append(mean)
        print(f"{i:3d} {p['set']:6s} {p['layout']} {p['ops']} {p['M']:>5s} x {p['N']:>5s} x {p['K']:>5s} "
              f"{g:12s} {p['path']:22s} " + " ".join(f"{r:.3f}" for r in ratios[i]))
    print("base time / new time, geometric mean over the rounds, by the group of the path:")
    for g, v in sorted(groups.items()):
        print(f"  {g:12s} {math.exp(sum(math.log(x) for x in v) / len(v)):.3f} over {len(v)} problems")


if __name__ == "__main__":
    main()
