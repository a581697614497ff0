#!/usr/bin/env bash
# Call 1. The two prepared changes measured: (1) pack_rate, the packing copy before and after;
# (2) tools/bench_shapes paired three ways, built on the CPU machine from one database (the
# workload tuning of 2026-12-04-h200-cluster-split call 1), each header emitted --from-source
# by its own version: main (92e5b16), pack (experiment/realigned-pack: packing as one launch
# of a realigning copy), nl (experiment/realigned-narrow-loads: pack plus the kernels'
# unaligned 4-byte loads realigned); two rounds of seeds 1 and 2, the order rotated each
# round; (3) search_spaces/workload.json tuned afresh by main's and nl's sgemm-tune, the
# databases kept for the next call, and bench/experiments/workload_narrow.json by nl's.
# Carry [".device"]: devbin.tgz (sgemm-tune-main, sgemm-tune-nl,
# pack_rate, bench_shapes-{main,pack,nl}).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
T0=$(date +%s)
{ date -u; echo "trees: $(cat .device/COMMITS)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
mkdir -p "$OUT/logs"
timeout 60 .device/pack_rate >"$OUT/pack_rate.txt" 2>&1
echo "pack_rate exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
for round in 1 2; do
  case $round in 1) order="main pack nl" ;; 2) order="nl pack main" ;; esac
  for seed in 1 2; do
    for v in $order; do
      log=$OUT/logs/$v-seed$seed-round$round.txt
      timeout 60 .device/bench_shapes-$v --seed "$seed" --count 48 --dispatch predicted >"$log" 2>&1
      echo "round $round seed $seed $v exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$OUT/gpu.txt"
    done
  done
done
tune() {  # NAME VERSION SPACE
  mkdir -p "$OUT/logs/tune-$1"
  timeout -s INT 150 .device/sgemm-tune-$2 --space "$3" --db "$OUT/tune-$1.db" --top 3 \
    >"$OUT/logs/tune-$1/tune.txt" 2>"$OUT/logs/tune-$1/tune.log"
  echo "tune $1 ($2, $3) exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
  python3 -c "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(TRUNCATE)')" "$OUT/tune-$1.db"
}
tune main main search_spaces/workload.json
tune nl nl search_spaces/workload.json
tune nl-narrow nl bench/experiments/workload_narrow.json
PYTHONPATH=tools python3 - "$OUT/logs" <<'PY' | tee -a "$OUT/gpu.txt"
import sys, os
from bench_table import gmean, load
d = sys.argv[1]
def pair(a, b):
    print("%s time / %s time (above 1: %s faster)" % (a, b, b))
    by_kernel = {}
    for group in ("random", "suite", "named"):
        r = []
        for seed in (1, 2):
            for rnd in (1, 2):
                x = load(os.path.join(d, "%s-seed%d-round%d.txt" % (a, seed, rnd)))
                y = load(os.path.join(d, "%s-seed%d-round%d.txt" % (b, seed, rnd)))
                for k in x:
                    if k in y and x[k].set == group:
                        r.append(x[k].ms / y[k].ms)
                        if group == "random":
                            by_kernel.setdefault(y[k].kernel, []).append(x[k].ms / y[k].ms)
        print("  %s: %.3f over %d" % (group, gmean(r), len(r)))
    for kname, r in sorted(by_kernel.items()):
        print("    random on %s: %.3f over %d" % (kname, gmean(r), len(r)))
pair("main", "pack")
pair("pack", "nl")
pair("main", "nl")
PY
echo "done after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
xz -T8 "$OUT"/tune-*.db
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$OUT/logs"
