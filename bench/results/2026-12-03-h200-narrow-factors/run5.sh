#!/usr/bin/env bash
# Call 5 (issue 11): call 4 found aligned products that split K 3-8% slower with the realigned
# code (b9a5979 gives the aligned C's scale pass its old code back; c794918, run here, has
# that and two refactors of the same floats). The two shapes-benchmark programs built on the
# CPU machine (tools/bench_shapes_paired.sh BUILD_ONLY=1 CUDA_ARCHITECTURES=90, call1's
# database; base c2047ba, new c794918) carried in .device/progs (stripped, gzipped) and run
# paired: the random set of seed 1 (two rounds), then call1's problem list, one round, measured
# dispatch. Then the new program's sweep of the random set of seed 1 (every choice the
# selection weighs, timed: what tools/replay_sweep refits split_adds on, now that an
# unaligned C's split parts are added 16 bytes at a time). To make .device for it here:
#   tools/pack_for_device.sh --base c2047ba
#   zcat bench/results/2026-12-02-h200-measured-dispatch/call6/workload.db.gz > /tmp/workload.db
#   OUT=/tmp/pcheck BASE=.device/base DB=/tmp/workload.db BUILD_ONLY=1 CUDA_ARCHITECTURES=90 \
#     tools/bench_shapes_paired.sh
#   for v in base new; do mkdir -p .device/progs/$v; strip -o .device/progs/$v/bench_shapes \
#     /tmp/bench_shapes_paired/$v/build/bench_shapes; gzip -9 .device/progs/$v/bench_shapes; done
#   rm .device/sgemm-tune .device/sgemm_tune_gpu_tests   # the tree and carry must stay under 64 MiB
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
cat .device/COMMIT
for v in base new; do mkdir -p /tmp/bench_shapes_paired/$v/build; gunzip -c .device/progs/$v/bench_shapes.gz > /tmp/bench_shapes_paired/$v/build/bench_shapes; chmod +x /tmp/bench_shapes_paired/$v/build/bench_shapes; done
db=bench/results/2026-12-02-h200-measured-dispatch/call6/workload.db.gz
OUT=$OUT/random BASE=.device/base DB=$db ROUNDS=2 SEEDS=1 DISPATCH=measured REUSE_BUILD=1 timeout 200 \
  tools/bench_shapes_paired.sh > $OUT/paired-random.txt 2>&1
echo "random exit $?"
(cd $OUT && tar czf random.tgz random && rm -rf random)
OUT=$OUT/listed BASE=.device/base DB=$db ROUNDS=1 SEEDS=1 DISPATCH=measured REUSE_BUILD=1 \
  PROBLEMS=bench/experiments/narrow_factors.txt timeout 80 tools/bench_shapes_paired.sh > $OUT/paired-listed.txt 2>&1
echo "listed exit $?"
(cd $OUT && tar czf listed.tgz listed && rm -rf listed)
start=$(date +%s)
timeout 190 /tmp/bench_shapes_paired/new/build/bench_shapes --sweep --sweep-seconds 150 --seed 1 --count 48 \
  > $OUT/sweep-random.csv 2>&1
echo "sweep exit $? $(( $(date +%s) - start )) s: $(grep -c '^choice,' $OUT/sweep-random.csv) choices"
gzip $OUT/sweep-random.csv
grep -A8 "^all rounds" $OUT/paired-random.txt | head -12; grep -A8 "^all rounds" $OUT/paired-listed.txt | head -9
