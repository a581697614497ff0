"""The problem table tools/bench_shapes prints, read back: one parser for every script that
pairs or sums its runs (tools/bench_compare.py, tools/bench_shapes_paired.sh).

A problem's line, as main.cu prints it:
    #  set  layout ops  M N K  lda ldb ldc offset  tuned-ms cuBLAS-ms ratio  err(beta 0) err(beta .5)
    ok|FAIL  path  split  [predicted-ms  first-ms  timed  [tile]]
The last four columns came later: an older table lacks them, and they read as NaN and "-".
"""
import math
import re

_PROBLEM = re.compile(r"\s*\d+ (random|suite|named|listed)\s+(row|col) [NT][NT]\s")


class Problem:
    """One verified problem of a table: its numbers under their names."""

    def __init__(self, w):
        self.index = int(w[0])
        self.set = w[1]
        self.layout, self.ops = w[2], w[3]
        self.M, self.N, self.K = int(w[4]), int(w[5]), int(w[6])
        self.lda, self.ldb, self.ldc, self.offset = int(w[7]), int(w[8]), int(w[9]), int(w[10])
        self.ms, self.cublas_ms = float(w[11]), float(w[12])
        self.path, self.split = w[17], w[18]
        self.predicted_ms = float(w[19]) if len(w) > 19 else math.nan
        self.first_ms = float(w[20]) if len(w) > 20 else math.nan
        self.timed = w[21] if len(w) > 21 else "-"
        # The tuned entry's tile ("64x128x32/w64x32/n2/t4x4/s2/p1/k0"); a note in
        # parentheses may follow the columns instead.
        self.tile = w[22] if len(w) > 22 and not w[22].startswith("(") else "-"

    @property
    def what(self):
        return "%s %s %dx%dx%d" % (self.layout, self.ops, self.M, self.N, self.K)

    @property
    def kernel(self):
        """The kernel the problem ran on, from its path (tuned-edge-cubin, tuned-any-source, ...):
        a change to one kernel shows in its group, and the other groups are its control. The
        edge kernel's narrow bodies serve rows of A or B that are not 16-byte aligned (lda or
        ldb not a multiple of 4, or an offset pointer)."""
        if "-any-" in self.path:
            return "kernel of any operands"
        if "-packed-transposed-" in self.path:  # a transposed B packed alone
            return "transposed B packed, then the narrow bodies"
        if "-packed-" in self.path:
            return "packed, then the edge kernel"
        if "edge" in self.path:  # tuned-edge-*, and default-edge (the seed tile's edge kernel)
            narrow = self.lda % 4 or self.ldb % 4 or self.offset % 4
            return "edge kernel, narrow bodies" if narrow else "edge kernel, wide bodies"
        return "fast kernel" if self.path.startswith("tuned-") else self.path


def load(path):
    """The verified problems of a bench_shapes table, by their index. A problem that failed
    verification is left out: its time means nothing."""
    out = {}
    with open(path) as f:
        for line in f:
            if not _PROBLEM.match(line):
                continue
            w = line.split()
            if len(w) >= 19 and w[16] == "ok":
                p = Problem(w)
                out[p.index] = p
    return out


def gmean(values):
    values = list(values)
    return math.exp(sum(map(math.log, values)) / len(values)) if values else math.nan
