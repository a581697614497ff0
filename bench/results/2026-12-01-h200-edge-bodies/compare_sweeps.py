#!/usr/bin/env python3
"""The same choices (problem, tile, kernel kind, K split) timed in two sweeps of
`bench_shapes --sweep` (each a CSV, optionally gzipped): geometric mean of the first
sweep's time over the second's, per pair of kernel kinds. The sweeps may come from
different tunings: only choices whose tile appears in both are compared. The 'any' and
'fast' kernels, whose code did not change between the runs compared here, show the noise
between two runs (1.00 when there is none).
    compare_sweeps.py OLD.csv[.gz] NEW.csv[.gz]"""
import collections, gzip, math, sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    entries, choices = [], {}
    with opener(path, "rt") as f:
        for line in f:
            r = line.strip().split(",")
            if r[0] == "entry" and r[1] != "M":
                entries.append(tuple(r[4:15]))  # the tile
            elif r[0] == "choice" and r[1] != "problem":
                ms = float(r[20]) if r[20] not in ("", "nan") else math.nan
                choices[(int(r[1]), entries[int(r[16])], r[17], int(r[18]))] = ms
    return choices


def main():
    old, new = load(sys.argv[1]), load(sys.argv[2])
    ratios = collections.defaultdict(list)
    for (problem, tile, kind, splits), ms in new.items():
        for old_kind in ("fast", "edge", "any", "packed"):
            before = old.get((problem, tile, old_kind, splits))
            if before is not None and math.isfinite(before) and math.isfinite(ms):
                ratios[(old_kind, kind)].append(before / ms)
    for (old_kind, kind), r in sorted(ratios.items()):
        g = math.exp(sum(map(math.log, r)) / len(r))
        print(f"old {old_kind:6} -> new {kind:6} {len(r):4} choices: old time / new time {g:.3f}")


main()
