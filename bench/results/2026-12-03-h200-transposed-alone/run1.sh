#!/usr/bin/env bash
# Call 1 (issue 11), two paired comparisons on the session-16 workload database, measured
# dispatch, three programs built on the CPU machine (bench_shapes against a header emitted
# --from-source from that database; each version's kernel_templates):
#   base:  ba49e80
#   pairs: ba49e80 + bench/experiments/narrow_pairs.patch (the narrow bodies copy and load
#          rows that start 8-byte aligned two floats at a time)
#   route: pairs + this session's run-time change (a transposed B packed alone, the other
#          operand read by the narrow bodies; the measured dispatch also times the first
#          selection's other packings)
# Pair 1, base against pairs: bench/experiments/narrow_pairs.txt, then the random sets of
# seeds 1 and 2. Pair 2, pairs against route: bench/experiments/transposed_alone.txt, then
# the same random sets. Each two rounds, base first in odd rounds.
# Carry [".device"] (.device/progs/{base,pairs,route}/bench_shapes.xz, xz -9 of the stripped programs; .device/base from
# tools/pack_for_device.sh --base ba49e80): OUT=$OUT bash <this file>
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
T0=$(date +%s)
{ date -u; echo "tree $(cat .device/COMMIT), base $(cat .device/base/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
db=bench/results/2026-12-02-h200-measured-dispatch/call6/workload.db.gz
place() {  # place VERSION-AS PROGRAM
  mkdir -p /tmp/bench_shapes_paired/$1/build
  xz -dc .device/progs/$2/bench_shapes.xz >/tmp/bench_shapes_paired/$1/build/bench_shapes
  chmod +x /tmp/bench_shapes_paired/$1/build/bench_shapes
}
paired() {  # paired NAME PROBLEMS-OR-EMPTY SEEDS LIMIT
  OUT=$OUT/$1 BASE=.device/base DB=$db ROUNDS=2 SEEDS=$3 DISPATCH=measured REUSE_BUILD=1 PROBLEMS=$2 \
    timeout "$4" tools/bench_shapes_paired.sh >"$OUT/paired-$1.txt" 2>&1
  echo "$1 exit $? after $(($(date +%s) - T0)) s"
}
# Each pair runs where its two programs were carried: the working tree and the carried
# folder travel under 64 MiB together, which three programs exceed, so the pairs may come in
# two calls of this script.
ran=()
if [[ -f .device/progs/base/bench_shapes.xz && -f .device/progs/pairs/bench_shapes.xz ]]; then
  place base base; place new pairs
  paired pairs-listed bench/experiments/narrow_pairs.txt 1 110
  paired pairs-random "" "1 2" 150
  ran+=(pairs-listed pairs-random)
fi
if [[ -f .device/progs/pairs/bench_shapes.xz && -f .device/progs/route/bench_shapes.xz ]]; then
  place base pairs; place new route
  paired route-listed bench/experiments/transposed_alone.txt 1 60
  paired route-random "" "1 2" 150
  ran+=(route-listed route-random)
fi
(cd "$OUT" && tar czf logs.tgz "${ran[@]}" && rm -rf "${ran[@]}")
for f in "${ran[@]}"; do
  echo "== $f"
  grep -A9 "^all rounds" "$OUT/paired-$f.txt" | head -12
done
