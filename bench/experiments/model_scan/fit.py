#!/usr/bin/env python3
"""Fit the selection model's constants jointly against graph-timed sweeps, held to the replay
tests' minimums on the back-to-back sweeps of tests/data, on the CPU.

scan.py moves one constant at a time. This script moves them together, by coordinate descent
over a grid of values for each, and adds four factors the header does not have, so that a
change of the model's form can be judged before it is written into the header:

    kEdge4, kEdge8           the edge kernel (and the kernel of any operands) of a tile of 4,
                             or 8 or more warps a block, against its predicted time (the
                             header's kOneWarpEdgeSlowdown and kFewWarpEdgeSlowdown weigh 1
                             and 2 warps, and are fitted as its other constants are)
    kTail                    the tail split against its predicted time
    kSplitEach               each split of K past the first, as a fraction of the time

All four are 1 (0 for kSplitEach) in the header's model, which they leave as it is at those
values. (Session 45 found the one-warp price with a fifth, kEdge1, since written into the
header as kOneWarpEdgeSlowdown.) The objective is the sum over the training sweeps of
log(% of cuBLAS) of the random (or listed) set plus half that of the suite and named sets,
plus, weighted by --b2b-weight, the same of the back-to-back sweeps' random sets, less 0.2
per point by which a setting falls under one of the replay tests' minimums (read from
tests/CMakeLists.txt). The held-out sweeps are only reported.

    fit.py WORK --train SWEEP,... --test SWEEP,... [--b2b-weight W] [--only NAME,...]

Every SWEEP is a graph-timed sweep (`bench_shapes --sweep --graphs`; .gz is read as well),
replayed with --cluster-split. Session 45's fit: bench/NOTES.md.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan  # noqa: E402  (the patched copy of the templates, the replay build, .gz reading)

# A replay test of tests/CMakeLists.txt on a back-to-back sweep of tests/data: the sweep, the
# flags between --quiet and its minimums, and the minimums (--min SET=PERCENT).
REPLAY_TEST = re.compile(r"tests/data/(sweep_\w+\.csv\.gz)' > \w+\.csv && '\$<TARGET_FILE:replay_sweep>' \w+\.csv "
                         r"--quiet((?: --(?!min )[\w-]+(?: [\w,]+)?)*)((?: --min \w+=[0-9.]+)+)\"")


def back_to_back_guards():
    """The replay tests' minimums on the sweeps of tests/data, read from tests/CMakeLists.txt so
    that the fit is held to what the tests hold, as they stand: [(sweep, flags, {set: percent})]."""
    path = os.path.join(scan.ROOT, 'tests', 'CMakeLists.txt')
    guards = [(m.group(1), m.group(2).split(), {k: float(v) for k, v in re.findall(r'--min (\w+)=([0-9.]+)', m.group(3))})
              for m in REPLAY_TEST.finditer(open(path).read())]
    if not guards:
        sys.exit(f'fit.py: no replay test with --min on a sweep of tests/data in {path}; update REPLAY_TEST')
    return guards


# Each constant's values to try (the header's own value is always among them).
GRID = {
    'kLaunchPs': [1e6, 2e6, 3e6, 4e6, 5e6],
    'kNarrowKernelSlowdown': [1.1, 1.15, 1.25, 1.35],
    'kAnyKernelSlowdown': [1.2, 1.3, 1.45, 1.6],
    'kPackBytesPerPs': [1.5, 2.0, 3.0],
    'kFewWarpEdgeSlowdown': [1.0, 1.05, 1.1, 1.2],
    'kOneWarpEdgeSlowdown': [1.1, 1.25, 1.4, 1.6],
    'kBlockOverheadSlices': [2.0, 3.0, 4.0, 6.0],
    'kOneWarpPerSchedulerRate': [0.4, 0.45, 0.5, 0.6],
    'kTwoWarpsPerSchedulerRate': [0.75, 0.85, 0.95],
    'kWorkspacePs': [0.5e6, 1e6, 2e6],
    'kEdge4': [0.9, 0.95, 1.0, 1.05, 1.1],
    'kEdge8': [1.0, 1.1, 1.2, 1.35, 1.5],
    'kTail': [0.9, 0.95, 1.0, 1.05, 1.1, 1.2],
    'kSplitEach': [-0.005, 0.0, 0.005, 0.01],
}
FORM = {'kEdge4': 1.0, 'kEdge8': 1.0, 'kTail': 1.0, 'kSplitEach': 0.0}


def add_form_factors(work):
    """The factors of the docstring, read from the environment, into the patched copy: each
    multiplies `few_warps`, the edge kernel's factor, before the fill split is resolved
    (so kSplitEach does not see a fill split's count)."""
    path = os.path.join(work, 'kt', 'sgemm_tuned_select.h')
    text = open(path).read()
    anchor = 'inline const double kWorkspacePs = scan_constant("kWorkspacePs", 2.0e6);'
    declared = 'const double few_warps = !edges'
    before = '  if (edges && splits == kEdgeFillSplit)'
    if text.count(anchor) != 1 or text.count(declared) != 1 or text.count(before) != 1 or \
            text.index(declared) > text.index(before):
        sys.exit(f'fit.py: {path} no longer has the lines the form factors attach to; update add_form_factors')
    text = text.replace(anchor, anchor + ''.join(
        f'\ninline const double {k} = scan_constant("{k}", {v});' for k, v in FORM.items()))
    text = text.replace(declared, 'double few_warps = !edges')
    text = text.replace(before, (
        '  const int form_warps = tile_threads(e.tile) / 32;\n'
        '  if (edges) few_warps *= form_warps == 4 ? kEdge4 : form_warps >= 8 ? kEdge8 : 1.0;\n'
        '  if (edges && splits == kEdgeTailSplit) few_warps *= kTail;\n'
        '  if (edges && splits > 1) few_warps *= 1.0 + kSplitEach * (splits - 1);\n') + before)
    open(path, 'w').write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('work')
    ap.add_argument('--train', required=True, help='graph-timed sweeps, comma-separated')
    ap.add_argument('--test', default='', help='held-out graph-timed sweeps, comma-separated')
    ap.add_argument('--b2b-weight', type=float, default=1.0)
    ap.add_argument('--only', default='', help='fit only these constants (comma-separated)')
    a = ap.parse_args()
    only = [k for k in a.only.split(',') if k]
    unknown = [k for k in only if k not in GRID]
    if unknown:
        sys.exit(f'fit.py: --only names no constant of the grid: {", ".join(unknown)} (known: {", ".join(GRID)})')
    os.makedirs(a.work, exist_ok=True)
    header = scan.patched_templates(a.work)
    add_form_factors(a.work)
    binary = scan.build_replay(a.work)
    data = os.path.join(scan.ROOT, 'tests', 'data')
    train = [scan.plain_csv(a.work, s) for s in a.train.split(',') if s]
    test = [scan.plain_csv(a.work, s) for s in a.test.split(',') if s]
    b2b = [(scan.plain_csv(a.work, os.path.join(data, s)), f, m) for s, f, m in back_to_back_guards()]
    cache = {}

    def sets(csv, flags, env):
        key = (csv, tuple(flags), tuple(sorted(env.items())))
        if key not in cache:
            cache[key] = {k: v for k, (v, _) in scan.replay(binary, csv, flags, env).items()}
        return cache[key]

    def graph(env, sweeps):
        total, shown = 0.0, []
        for csv in sweeps:
            s = sets(csv, ['--cluster-split'], env)
            main_set = s.get('random', s.get('listed'))
            if main_set is None:
                sys.exit(f'fit.py: {csv} has neither a random nor a listed set')
            total += math.log(main_set)
            shown.append(f'{os.path.basename(csv)[:24]} {main_set:.1f}')
            for k in ('suite', 'named'):
                if k in s:
                    total += 0.5 * math.log(s[k])
        return total, shown

    def back_to_back(env):
        total, short = 0.0, 0.0
        for csv, flags, mins in b2b:
            s = sets(csv, flags, env)
            if '--measured' not in flags and 'random' in s:
                total += math.log(s['random'])
            short += sum(max(0.0, least - s.get(k, 0.0)) for k, least in mins.items())
        return total, short

    def objective(env):
        t, short = back_to_back(env)
        return graph(env, train)[0] + a.b2b_weight * t - 0.2 * short

    grid = {k: v for k, v in GRID.items() if not only or k in only}
    base = {k: header.get(k, FORM.get(k)) for k in grid}
    current = dict(base)
    for sweep_round in range(4):
        moved = False
        for name, values in grid.items():
            best_value, best = current[name], objective(current)
            for v in values:
                score = objective(dict(current, **{name: v}))
                if score > best + 1e-4:
                    best_value, best = v, score
            moved |= best_value != current[name]
            current[name] = best_value
        print(f'round {sweep_round + 1}:', json.dumps({k: v for k, v in current.items() if v != base[k]}), flush=True)
        if not moved:
            break
    for label, env in (('header', base), ('fitted', current)):
        print(f'{label}: train  ' + '; '.join(graph(env, train)[1]))
        if test:
            print(f'{label}: test   ' + '; '.join(graph(env, test)[1]))
        t, short = back_to_back(env)
        print(f'{label}: back-to-back random sets, sum of logs {t:.3f}; points under the tests\' minimums {short:.2f}')


if __name__ == '__main__':
    main()
