#!/usr/bin/env bash
# Call 3 (issue 11): the selection's edge kernels of tiles of one or two warps priced 1.1x
# (kFewWarpEdgeSlowdown, e07eefc) against 1cb3a14, paired, predicted dispatch (where the
# model alone chooses), the random sets of seeds 1 and 2, one round each (the device time
# left allowed no more). Programs built on the CPU machine as in call 1 (.device/progs/
# {fw0,fw1}/bench_shapes.xz), base tree tools/pack_for_device.sh --base 1cb3a14.
# Carry [".device"]: OUT=$OUT bash <this file>
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
T0=$(date +%s)
{ date -u; echo "tree $(cat .device/COMMIT), base $(cat .device/base/COMMIT)"; } | tee "$OUT/gpu.txt"
db=bench/results/2026-12-02-h200-measured-dispatch/call6/workload.db.gz
for pair in "base fw0" "new fw1"; do
  set -- $pair
  mkdir -p /tmp/bench_shapes_paired/$1/build
  xz -dc .device/progs/$2/bench_shapes.xz >/tmp/bench_shapes_paired/$1/build/bench_shapes
  chmod +x /tmp/bench_shapes_paired/$1/build/bench_shapes
done
OUT=$OUT/few-warps BASE=.device/base DB=$db ROUNDS=1 SEEDS="1 2" DISPATCH=predicted REUSE_BUILD=1 \
  timeout "${LIMIT:-150}" tools/bench_shapes_paired.sh >"$OUT/paired-few-warps.txt" 2>&1
echo "few-warps exit $? after $(($(date +%s) - T0)) s"
(cd "$OUT" && tar czf logs.tgz few-warps && rm -rf few-warps)
grep -A12 "^all rounds" "$OUT/paired-few-warps.txt" | head -14
