#!/usr/bin/env python3
"""Paired comparison of two tuning databases of the same space: for every (configuration,
shape) measured ok in both, the ratio of times, and their geometric mean.

    bench/experiments/paired.py BEFORE.db AFTER.db [LABEL]
"""
import math
import sqlite3
import sys

COLUMNS = "m, n, k, bm, bn, bk, wm, wn, wniter, tm, tn, stages, prefetch, stream_k"


def load(path):
    db = sqlite3.connect(path)
    rows = db.execute(f"SELECT {COLUMNS}, time_ms, registers FROM results WHERE status = 'ok'")
    return {row[:14]: row[14:] for row in rows}


def main():
    before, after = load(sys.argv[1]), load(sys.argv[2])
    label = sys.argv[3] if len(sys.argv) > 3 else "after/before"
    common = sorted(set(before) & set(after), key=lambda key: before[key][0])
    if not common:
        sys.exit("no configuration measured ok in both databases")
    logs = []
    for key in common:
        (t0, r0), (t1, r1) = before[key], after[key]
        logs.append(math.log(t0 / t1))
        print("%-58s %8.3f %8.3f %+6.2f%%  regs %3d %3d" % (key, t0, t1, 100 * (t0 / t1 - 1), r0, r1))
    gain = 100 * (math.exp(sum(logs) / len(logs)) - 1)
    # The best time of each shape (the first three key columns) in each database.
    shapes = sorted({key[:3] for key in common})
    best = ", ".join(
        "%dx%dx%d %.3f -> %.3f ms" % (*shape, min(t for k, (t, _) in before.items() if k[:3] == shape),
                                      min(t for k, (t, _) in after.items() if k[:3] == shape))
        for shape in shapes)
    print(f"{label}: speed {gain:+.2f}% (geometric mean over {len(common)} pairs); best {best}")


if __name__ == "__main__":
    main()
