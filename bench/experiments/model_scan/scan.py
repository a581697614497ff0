#!/usr/bin/env python3
"""Scan the selection model's constants against measured sweeps, one at a time, on the CPU.

The constants of kernel_templates/sgemm_tuned_select.h (`constexpr double kName = value;`)
decide which kernel the generated header predicts fastest. This script copies
kernel_templates/ to WORK, turns each such constant into a value read once from the
environment variable of its name (the header's value when unset), builds
tools/replay_sweep against the copy, and replays every sweep with each constant set to each
value of the scan, one constant at a time. It prints, per setting, the geometric mean of
cuBLAS time / chosen time over all problems of each sweep, and the replay's `--min` checks
that the setting breaks (those of tests/CMakeLists.txt, given with --guard). The header
itself is not touched: a setting worth keeping is then written into sgemm_tuned_select.h and
judged by the replay tests and a GPU run.

    scan.py WORK SWEEP[:FLAGS] ... [--guard SWEEP:SET=PERCENT,...] [--only NAME,...]

SWEEP is a sweep CSV (bench_shapes --sweep; .gz is read as well), FLAGS replay_sweep's flags
for it joined by '+' (e.g. sweep.csv:--cluster-split). Session 40's scan:
bench/results/2026-12-06-h200-small-threads/RUN.md.
"""
import argparse
import gzip
import math
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
CONSTANT = re.compile(r'constexpr double (k[A-Za-z]+) = ([0-9.eE+-]+);')
# Each constant's values to try, as factors of the header's value: SCAN_FACTORS="0.25,0.5"
# (comma-separated) in the environment replaces the default list.
FACTORS = [float(f) for f in os.environ.get("SCAN_FACTORS", "0.5,0.75,0.9,1.1,1.25,1.5").split(",")]


def patched_templates(work):
    """kernel_templates/ copied to WORK/kt with the model's constants read from the
    environment; returns {name: header value}."""
    kt = os.path.join(work, 'kt')
    if os.path.exists(kt):
        shutil.rmtree(kt)
    shutil.copytree(os.path.join(ROOT, 'kernel_templates'), kt)
    path = os.path.join(kt, 'sgemm_tuned_select.h')
    text = open(path).read()
    found = {m.group(1): float(m.group(2)) for m in CONSTANT.finditer(text)}
    if not found:
        sys.exit(f'scan.py: no "constexpr double k... = ...;" in {path}')
    reader = ('#include <cstdlib>\n'
              'inline double scan_constant(const char *name, double value) {\n'
              '  const char *v = std::getenv(name);\n'
              '  return v != nullptr ? std::atof(v) : value;\n'
              '}\n')
    text = CONSTANT.sub(lambda m: f'inline const double {m.group(1)} = scan_constant("{m.group(1)}", {m.group(2)});',
                        text)
    first = text.index('namespace')
    open(path, 'w').write(text[:first] + reader + text[first:])
    return found


def build_replay(work):
    binary = os.path.join(work, 'replay_sweep')
    nvcc = shutil.which('nvcc') or '/usr/local/cuda/bin/nvcc'
    subprocess.run([nvcc, '-O2', '-std=c++17', '--generate-code=arch=compute_90,code=[sm_90]', '-I',
                    os.path.join(work, 'kt'), os.path.join(ROOT, 'tools', 'replay_sweep', 'main.cu'), '-o', binary],
                   check=True)
    return binary


def plain_csv(work, sweep):
    if not sweep.endswith('.gz'):
        return sweep
    out = os.path.join(work, os.path.basename(sweep)[:-3])
    with gzip.open(sweep, 'rb') as src, open(out, 'wb') as dst:
        shutil.copyfileobj(src, dst)
    return out


def replay(binary, sweep, flags, env):
    e = dict(os.environ)
    e.update({k: repr(v) for k, v in env.items()})
    out = subprocess.run([binary, sweep, '--quiet'] + flags, capture_output=True, text=True, env=e)
    if out.returncode not in (0, 1):
        sys.exit(f'scan.py: replay_sweep {sweep} failed: {out.stderr.strip()}')
    sets = {m.group(1): (float(m.group(2)), int(m.group(3)))
            for m in re.finditer(r'^(\w+)\s+chosen now ([0-9.]+)% of cuBLAS.*over (\d+);', out.stdout, re.M)}
    if not sets:
        sys.exit(f'scan.py: replay_sweep printed no set of {sweep}')
    return sets


def overall(sets):
    n = sum(c for _, c in sets.values())
    return math.exp(sum(c * math.log(v) for v, c in sets.values()) / n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('work')
    ap.add_argument('sweeps', nargs='+', help='SWEEP[:FLAGS], FLAGS joined by +')
    ap.add_argument('--guard', action='append', default=[], help='SWEEP:SET=PERCENT,... (SWEEP as given)')
    ap.add_argument('--only', default='', help='scan only these constants (comma-separated)')
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    constants = patched_templates(a.work)
    binary = build_replay(a.work)
    sweeps = []
    for spec in a.sweeps:
        path, _, flags = spec.partition(':')
        sweeps.append((spec, path, plain_csv(a.work, path), [f for f in flags.split('+') if f]))
    guards = {}
    for g in a.guard:
        path, _, mins = g.partition(':')
        guards[path] = {s: float(p) for s, _, p in (m.partition('=') for m in mins.split(','))}
    names = [n for n in constants if not a.only or n in a.only.split(',')]
    print('setting'.ljust(40) + ''.join(os.path.basename(p)[:22].rjust(24) for _, p, _, _ in sweeps) + '  broken')
    for name, value in [(None, None)] + [(n, constants[n] * f) for n in names for f in FACTORS]:
        env = {} if name is None else {name: value}
        row, broken = [], []
        for spec, path, csv, flags in sweeps:
            sets = replay(binary, csv, flags, env)
            row.append(overall(sets))
            for s, least in guards.get(path, {}).items():
                if sets.get(s, (0, 0))[0] < least:
                    broken.append(f'{os.path.basename(path)} {s} {sets.get(s, (0, 0))[0]} < {least}')
        label = 'the header' if name is None else f'{name} = {value:.4g}'
        print(label.ljust(40) + ''.join(f'{v:24.2f}' for v in row) + '  ' + ('; '.join(broken) or '-'), flush=True)


if __name__ == '__main__':
    main()
