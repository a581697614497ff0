#!/usr/bin/env python3
"""Two tools/bench_shapes tables of the same problems, paired problem by problem.

    tools/bench_compare.py BASE.txt NEW.txt [--list]

Prints, per set (random, suite, named, listed), the geometric mean of base time / new time and of
each side's cuBLAS time / own time (percent of cuBLAS); then the same ratio per kernel the
new side ran (a change to one kernel shows in its group, the others are its control), and
within each kernel per tile where the tables name the tiles; the
first calls' total time ("first ms") of each side; and, with --list, each problem whose
ratio moved by more than 5%: its shape, both paths and splits, both times.
"""
import math
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_table import gmean, load  # noqa: E402


def main(argv):
    # Piped into head, stop quietly when the reader goes away rather than with a traceback.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    paths = [a for a in argv[1:] if not a.startswith("--")]
    flags = [a for a in argv[1:] if a.startswith("--")]
    if len(paths) != 2 or any(f != "--list" for f in flags):
        sys.stderr.write("usage: bench_compare.py BASE.txt NEW.txt [--list]\n")
        return 2
    try:
        base, new = load(paths[0]), load(paths[1])
    except OSError as e:
        sys.stderr.write("bench_compare.py: cannot read %s: %s\n" % (e.filename, e.strerror))
        return 1
    common = [k for k in sorted(base) if k in new]
    if not common:
        sys.stderr.write("bench_compare.py: no verified problem is in both tables\n")
        return 1
    for group in ("random", "suite", "named", "listed"):
        ks = [k for k in common if base[k].set == group]
        if ks:
            print("%-6s base/new %.3f over %d; base %.1f%% of cuBLAS, new %.1f%%" % (
                group, gmean(base[k].ms / new[k].ms for k in ks), len(ks),
                100 * gmean(base[k].cublas_ms / base[k].ms for k in ks),
                100 * gmean(new[k].cublas_ms / new[k].ms for k in ks)))
    kernels = sorted({new[k].kernel for k in common})
    for kernel in kernels:
        ks = [k for k in common if new[k].kernel == kernel]
        print("  new on %-52s base/new %.3f over %d" % (kernel + ":", gmean(base[k].ms / new[k].ms for k in ks),
                                                       len(ks)))
    # Within a kernel, by the tile the new side ran (tables that name it): a change to the
    # kernels may help one tile and cost another.
    groups = sorted({(new[k].kernel, new[k].tile) for k in common if new[k].tile != "-"})
    for kernel, tile in groups:
        ks = [k for k in common if (new[k].kernel, new[k].tile) == (kernel, tile)]
        print("    %-50s %-34s base/new %.3f over %d" % (kernel, tile, gmean(base[k].ms / new[k].ms for k in ks),
                                                    len(ks)))
    print("first calls: base %.0f ms, new %.0f ms in all" % (sum(p.first_ms for p in base.values()),
                                                              sum(p.first_ms for p in new.values())))
    if "--list" in flags:
        for k in common:
            b, n = base[k], new[k]
            if abs(math.log(b.ms / n.ms)) > math.log(1.05):
                print("%3d %-6s %-22s %.3f  base %-20s %3s %8.4f  new %-20s %3s %8.4f (timed %s, first %.1f ms)%s" % (
                    k, b.set, b.what, b.ms / n.ms, b.path, b.split, b.ms, n.path, n.split, n.ms, n.timed,
                    n.first_ms, "" if n.tile == "-" else " " + n.tile))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
