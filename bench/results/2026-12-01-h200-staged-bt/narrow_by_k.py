#!/usr/bin/env python3
"""Where the edge kernel's narrow bodies lose time, from sweeps of every choice.

    narrow_by_k.py SWEEP.csv...

SWEEP.csv: `bench_shapes --sweep` output (uncompressed). For the edge kernel's choices on the
random problems, the geometric mean of measured / predicted time, narrow problems (a row of
A or B not 16-byte aligned: lda or ldb not a multiple of 4, or an offset) against wide ones,
by the K each split computes; then split by C's alignment (ldc and the offset), by K per
split (at most 256, or more) and by whether K is split.
"""
import collections
import csv
import math
import statistics
import sys


def choices(path):
    for r in csv.reader(open(path)):
        if r and r[0] == "choice" and r[1] != "problem" and r[2] == "random" and r[17] == "edge":
            yield r


def gmean(logs):
    return math.exp(statistics.mean(logs))


def main():
    for path in sys.argv[1:]:
        by_k = collections.defaultdict(list)
        by_c = collections.defaultdict(list)
        problems = collections.defaultdict(set)
        for r in choices(path):
            lda, ldb, ldc, off = int(r[8]), int(r[9]), int(r[10]), int(r[11])
            narrow = bool(lda % 4 or ldb % 4 or off % 4)
            c_unaligned = bool(ldc % 4 or off % 4)
            splits = int(r[18])
            k_per_split = int(r[7]) / splits
            ratio = math.log(float(r[20]) / float(r[19]))
            bucket = next(b for b in (128, 512, 2048, float("inf")) if k_per_split <= b)
            by_k[(narrow, bucket)].append(ratio)
            key = ("A or B narrow" if narrow else "A and B wide", "C unaligned" if c_unaligned else "C aligned",
                   "K/split <= 256" if k_per_split <= 256 else "K/split > 256", "split" if splits > 1 else "whole")
            by_c[key].append(ratio)
            problems[key].add(r[1])
        print(path)
        for bucket in (128, 512, 2048, float("inf")):
            wide, narrow = by_k.get((False, bucket)), by_k.get((True, bucket))
            if wide and narrow:
                print("  K per split <= %-6s measured/predicted wide %.2f (%d), narrow %.2f (%d): narrow / wide %.2f" %
                      (bucket, gmean(wide), len(wide), gmean(narrow), len(narrow), gmean(narrow) / gmean(wide)))
        for key in sorted(by_c):
            print("  %-13s %-11s %-14s %-5s measured/predicted %.2f over %4d choices of %2d problems" %
                  (*key, gmean(by_c[key]), len(by_c[key]), len(problems[key])))


if __name__ == "__main__":
    main()
