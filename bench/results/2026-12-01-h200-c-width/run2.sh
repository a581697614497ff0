#!/usr/bin/env bash
# GPU call 2: the edge kernel's scale pass loading four groups of C before storing any, 16
# bytes at a time where C is aligned (HEAD), paired against 4f9775a (C's width from its own
# alignment, measured in call1) on the same database, two rounds; ncu over the same eight
# problems (the scale pass's time at beta 0 and 0.5 against call1's); then the GPU tests,
# with the time call1's lacked. Logs to $OUT.
set -u
W=/tmp/w2; mkdir -p $W
source tools/device_env.sh
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,memory.used --format=csv; } > $W/date.txt
cp $W/date.txt $OUT/
gunzip -c .device/call1.db.gz > $W/call1.db
OUT=$W/paired BASE=.device/base DB=$W/call1.db ROUNDS=2 SEEDS=1 timeout 240 tools/bench_shapes_paired.sh > $W/paired.txt 2>&1; echo "paired exit $?"
cp $W/paired.txt $OUT/; tar czf $OUT/paired-logs.tgz -C $W paired
# The problems: 4 (col TN 837x530x143, any), 9 (row NN 4190x1988x201, packed), 20 (col TN
# 2442x118x151, any, split 4), 21 (row NT 100x4072x3839, any, split 3), 24 (col TT
# 7815x1430x73, edge), 32 (col TT 215x3476x899, packed), 38 (col NT 71x4590x311, edge), 57
# (1000^3, edge, split 2).
BS=/tmp/bench_shapes_paired/new/build/bench_shapes
ONLY=4,9,20,21,24,32,38,57
timeout 60 ncu --clock-control none -k 'regex:gemm|pack|scale|reduce|splitK' --csv --page raw \
  --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__waves_per_multiprocessor,sm__warps_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed \
  $BS --only $ONLY --verify-only > $OUT/ncu_light.csv 2> $OUT/ncu_light.err; echo "ncu light exit $?"
OUT=$W/tests timeout 310 tools/gpu_session.sh --test-limit 300 > $W/tests.txt 2>&1; echo "gpu tests exit $?"
cp -r $W/tests $OUT/
tail -12 $W/paired.txt
grep -E "tests exit|PASSED|FAILED" $W/tests/session.txt | tail -4
wc -l $OUT/ncu_light.csv
