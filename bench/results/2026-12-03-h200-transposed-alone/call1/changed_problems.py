#!/usr/bin/env python3
"""Problems whose base / new time moved more than 2%, per seed, from a paired run's folder
(unpacked from call1/*_logs.tgz): changed_problems.py FOLDER. Reads tools/bench_table.py."""
import sys, glob, os, math, collections
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'tools'))
from bench_table import load, gmean
d = sys.argv[1]
rat = collections.defaultdict(list); info = {}
for b in sorted(glob.glob(os.path.join(d, 'paired-base-seed*-round*.txt'))):
    n = b.replace('paired-base-', 'paired-new-')
    B, N = load(b), load(n)
    seed = b.split('seed')[1].split('-')[0]
    for k in B:
        if k in N:
            rat[(seed,) + (k if isinstance(k, tuple) else (k,))].append(B[k].ms / N[k].ms)
            info[(seed,) + (k if isinstance(k, tuple) else (k,))] = (B[k], N[k])
rows = []
for k, r in rat.items():
    b, n = info[k]
    rows.append((gmean(r), k[0], b.what, b.lda, b.ldb, b.offset, b.path, n.path, b.ms, n.ms, b.ratio if hasattr(b,'ratio') else 0))
rows.sort()
for r in rows:
    if abs(math.log(r[0])) > 0.02:
        print("%.3f seed%s %-22s lda %5d ldb %5d off %d  %-22s -> %-26s %.4f %.4f" % r[:10])
