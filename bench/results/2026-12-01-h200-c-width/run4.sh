#!/usr/bin/env bash
# GPU call 4: call3's fresh tuning of the workload space (4a10f06's kernels; its own build of
# bench_shapes ran out of call3's time) benchmarked through headers emitted from source, the
# way the paired benchmark builds them: HEAD against itself (.device/base is HEAD), one round,
# so that both halves are the same code and their ratios show the run-to-run spread. Logs
# to $OUT.
set -u
W=/tmp/w4; mkdir -p $W
source tools/device_env.sh
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,memory.used --format=csv; } > $OUT/date.txt
gunzip -c .device/fresh.db.gz > $W/fresh.db
OUT=$W/paired BASE=.device/base DB=$W/fresh.db ROUNDS=1 SEEDS=1 timeout 280 tools/bench_shapes_paired.sh > $W/paired.txt 2>&1; echo "paired exit $?"
cp $W/paired.txt $OUT/; tar czf $OUT/paired-logs.tgz -C $W paired
grep -E "geometric mean of|worst:" $W/paired/paired-*-seed1-round1.txt
sed -n '/all rounds/,/named  row NN 1000/p' $W/paired.txt
