#!/usr/bin/env bash
# Call 1 (H100 or H200): small_products waves (new: the clusters the GPU holds at once, and
# whether a split as clusters past them takes a second wave), small_products split (new:
# tiles of 32, 16 and 8 outputs a thread, K split 1-8 ways as clusters and after the scale
# pass, graph-timed beside cuBLAS, every way checked); small_products pdl (its beta-1 check
# against the no-wait control, first run); then session 37's run10 (bench_shapes --sweep
# --graphs with A's header, first run). Carry [".device"]: devbin.tgz with small_products
# and bench_shapes-A, both built at this folder's commit or later.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
source bench/results/2026-12-05-h100-small-splits/steps.sh
call_start  # common.sh: unpack, T0, G, the header
small_products_waves 90
small_products_split 150
small_products_pdl 90
R=bench/results/2026-12-05-h100-edge-shapes
sweep_graphs A "$R/small_problems.txt" "$R/sweep_problems.txt"
# The short table: per product, cuBLAS and the best way of each tile.
python3 - "$OUT/split.txt" <<'PY' | tee -a "$G"
import sys, collections
best = collections.OrderedDict()
cublas = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 9 or not f[0][0].isdigit() or 'x' not in f[0]:
        continue
    if f[1] == 'cublas':
        cublas[f[0]] = float(f[6]); continue
    tile = ' '.join(f[1:4]); rest = f[4:]
    splits, how, blocks, stream, graph = rest[0], rest[1], rest[2], rest[3], float(rest[4])
    key = (f[0], tile)
    if key not in best or graph < best[key][0]:
        best[key] = (graph, splits, how, blocks, rest[-3] if len(rest) > 7 else '')
for (p, tile), (g, s, how, b, ok) in best.items():
    print(f"{p:16s} {tile:24s} best {g:7.2f} us split {s} {how:8s} blocks {b:5s} cublas {cublas.get(p, float('nan')):7.2f}")
PY
