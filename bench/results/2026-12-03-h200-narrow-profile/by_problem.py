#!/usr/bin/env python3
"""Per-problem base time / new time of a paired run's tables (tools/bench_shapes_paired.sh
output, unpacked from logs.tgz), read with tools/bench_table.py:

    by_problem.py FOLDER

One line a problem, verified on both sides in every round: its shape and operands, the
kernel and split the new program ran it on, both times of round 1 and base / new of each
round. Then, over the problems on the edge kernel, the geometric mean of those ratios per
op pair and form: aligned, lda and ldb not multiples of 4 (narrow), operands at an offset.
"""
import collections
import glob
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
from bench_table import gmean, load  # noqa: E402


def form(p):
    if p.offset % 4:
        return "offset"
    return "narrow" if p.lda % 4 or p.ldb % 4 else "aligned"


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: by_problem.py FOLDER\n")
        return 2
    base = [load(f) for f in sorted(glob.glob(os.path.join(argv[1], "paired-base-seed1-round*.txt")))]
    new = [load(f) for f in sorted(glob.glob(os.path.join(argv[1], "paired-new-seed1-round*.txt")))]
    if not base or len(base) != len(new):
        sys.stderr.write("by_problem.py: no paired rounds in %s\n" % argv[1])
        return 1
    groups = collections.defaultdict(list)
    for k in sorted(new[0]):
        if not all(k in t for t in base + new):
            continue
        p = new[0][k]
        ratios = [b[k].ms / n[k].ms for b, n in zip(base, new)]
        print("%3d %-6s %-22s lda %5d ldb %5d ldc %5d off %d  %-28s %-20s split %3s  base %.4f new %.4f  ratios %s"
              % (k, p.set, p.what, p.lda, p.ldb, p.ldc, p.offset, p.kernel, p.path, p.split, base[0][k].ms, p.ms,
                 " ".join("%.3f" % r for r in ratios)))
        if "edge" in p.path:
            groups[(p.ops, form(p))] += ratios
    print("on the edge kernel, base / new by op pair and form:")
    for (ops, f), ratios in sorted(groups.items()):
        print("  %s %-7s %.3f over %d timings" % (ops, f, gmean(ratios), len(ratios)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
