#!/usr/bin/env python3
"""Three questions put to sweeps (bench_shapes --sweep) of the random set, with no GPU.

1. Where does the set lose? Per sweep, the oracle (the fastest choice swept for each
   problem) by whether A's and B's rows start 16-byte aligned (lda, ldb and the offset
   multiples of 4 floats), and for the products whose rows do not, the best choice that
   reads them as they lie (the narrow bodies, the kernel of any operands) against the best
   that packs them first.
2. What would cheaper packing give? The oracle of the products whose rows are not aligned
   if every packed choice took less by one launch (1.5 us) and, with a copy twice as fast,
   by half of what copying M x K + K x N floats at 1.7 TB/s takes (an upper bound: a
   choice that packed one operand saves less).
3. Would a learned correction of the selection's predictions choose better? The log of
   measured / predicted time of each edge-kernel choice, less its problem's mean (only the
   ranking within a problem matters), is fitted by least squares on features of the choice
   (split or not, K slices per split, splits, waves, few warps, edge waste, tail split) over
   all sweeps but one; the held-out sweep's problems then choose the edge-kernel choice of
   the least corrected prediction. Compared with the uncorrected prediction and the oracle
   among the same choices.

    selection_residuals.py SWEEP.csv[.gz] ...   (needs numpy: Debian's python3-numpy)

Findings and their use: bench/NOTES.md, session 32.
"""
import collections
import csv
import gzip
import math
import sys

import numpy as np


def read_sweep(path):
    """The entries (tiles, residency) and the random set's timed choices of a sweep."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        rows = list(csv.reader(f))
    entries = [
        dict(BM=int(r[4]), BN=int(r[5]), BK=int(r[6]), WM=int(r[7]), WN=int(r[8]), blocks_per_sm=int(r[17]))
        for r in rows
        if r and r[0] == "entry" and r[1] != "M"
    ]
    choices = []
    for r in rows:
        if not r or r[0] != "choice" or r[1] == "problem" or r[2] != "random":
            continue
        c = dict(problem=int(r[1]), M=int(r[5]), N=int(r[6]), K=int(r[7]), lda=int(r[8]), ldb=int(r[9]),
                 offset=int(r[11]), cublas_ms=float(r[12]), entry=int(r[16]), kind=r[17], splits=int(r[18]),
                 predicted_ms=float(r[19]), ms=float(r[20]))
        if c["ms"] > 0 and math.isfinite(c["ms"]):
            choices.append(c)
    by_problem = collections.defaultdict(list)
    for c in choices:
        by_problem[c["problem"]].append(c)
    return entries, by_problem


def percent(ratios):
    return 100 * math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else float("nan")


def ratio(c):
    return c["cublas_ms"] / c["ms"]


def fastest(choices):
    return min(choices, key=lambda c: c["ms"])


def features(entries, c):
    e = entries[c["entry"]]
    splits = max(c["splits"], 1)  # 0: the tail split, one piece a block
    tiles = math.ceil(c["M"] / e["BM"]) * math.ceil(c["N"] / e["BN"])
    per_split = math.ceil(math.ceil(c["K"] / e["BK"]) / splits)
    waves = tiles * splits / (132 * max(e["blocks_per_sm"], 1))
    warps = (e["BM"] // e["WM"]) * (e["BN"] // e["WN"])
    waste = math.ceil(c["M"] / e["BM"]) * e["BM"] * math.ceil(c["N"] / e["BN"]) * e["BN"] / (c["M"] * c["N"])
    return [float(splits > 1), math.log(per_split), math.log(splits), 1.0 / per_split, math.log(max(waves, 1e-3)),
            float(warps <= 2), math.log(waste), float(c["splits"] == 0)]


def edge_choices(by_problem):
    return {p: [c for c in cs if c["kind"] == "edge"] for p, cs in by_problem.items()
            if any(c["kind"] == "edge" for c in cs)}


def residual_design(entries, by_problem):
    """Features and log residuals, each less its problem's mean."""
    X, y = [], []
    for cs in edge_choices(by_problem).values():
        r = np.array([math.log(c["ms"] / c["predicted_ms"]) for c in cs])
        f = np.array([features(entries, c) for c in cs])
        X.append(f - f.mean(axis=0))
        y.append(r - r.mean())
    return np.vstack(X), np.concatenate(y)


def main(paths):
    sweeps = {path: read_sweep(path) for path in paths}
    print("1. The oracle of the random set by row alignment")
    for path, (entries, by_problem) in sweeps.items():
        classes = collections.defaultdict(list)
        for cs in by_problem.values():
            c0 = cs[0]
            aligned = c0["lda"] % 4 == 0 and c0["ldb"] % 4 == 0 and c0["offset"] % 4 == 0
            classes["aligned" if aligned else "not aligned"].append(ratio(fastest(cs)))
            if aligned:
                continue
            as_they_lie = [c for c in cs if c["kind"] in ("edge", "any")]
            packed = [c for c in cs if c["kind"].startswith("packed")]
            if as_they_lie and packed:
                classes["not aligned, as they lie"].append(ratio(fastest(as_they_lie)))
                classes["not aligned, packed"].append(ratio(fastest(packed)))
        print("  %s: %s" % (path, "; ".join("%s %.1f%% over %d" % (k, percent(v), len(v))
                                              for k, v in sorted(classes.items()))))
    print("2. The unaligned products' oracle with packing cheaper (one launch fewer; and a copy twice as fast)")
    for path, (entries, by_problem) in sweeps.items():
        figures = []
        for launch_us, speedup in ((1.5, 1.0), (1.5, 2.0)):
            before, after = [], []
            for cs in by_problem.values():
                c0 = cs[0]
                if c0["lda"] % 4 == 0 and c0["ldb"] % 4 == 0 and c0["offset"] % 4 == 0:
                    continue
                floats = c0["M"] * c0["K"] + c0["K"] * c0["N"]
                saving_ms = launch_us * 1e-3 + 8.0 * floats / 1.7e12 * 1e3 * (1 - 1 / speedup)
                best = fastest(cs)["ms"]
                packed = [c["ms"] - saving_ms for c in cs if c["kind"] == "packed"]
                before.append(c0["cublas_ms"] / best)
                after.append(c0["cublas_ms"] / min([best] + packed))
            figures.append("%.1f%% -> %.1f%% (%s)" % (percent(before), percent(after),
                                                        "one launch" if speedup == 1 else "and twice as fast"))
        print("  %s: %s" % (path, "; ".join(figures)))
    print("3. A least-squares correction of the predictions, each sweep held out in turn (edge kernel only)")
    for held_out in paths:
        fits = [residual_design(*sweeps[p]) for p in paths if p != held_out]
        X = np.vstack([f[0] for f in fits])
        y = np.concatenate([f[1] for f in fits])
        w = np.linalg.lstsq(X, y, rcond=None)[0]
        entries, by_problem = sweeps[held_out]
        X_out, y_out = residual_design(entries, by_problem)
        raw, corrected, oracle = [], [], []
        for cs in edge_choices(by_problem).values():
            raw.append(ratio(min(cs, key=lambda c: c["predicted_ms"])))
            corrected.append(ratio(min(cs, key=lambda c: c["predicted_ms"] * math.exp(np.dot(w, features(entries, c))))))
            oracle.append(ratio(fastest(cs)))
        print("  %s: predicted %.1f%%, corrected %.1f%%, oracle %.1f%%; within-problem residual sd %.3f, %.3f after "
              "the fit" % (held_out, percent(raw), percent(corrected), percent(oracle), y_out.std(),
                           (y_out - X_out @ w).std()))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: selection_residuals.py SWEEP.csv[.gz] SWEEP.csv[.gz] ...")
    main(sys.argv[1:])
