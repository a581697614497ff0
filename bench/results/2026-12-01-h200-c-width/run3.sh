#!/usr/bin/env bash
# GPU call 3: the session's kernels (4a10f06: C's width from its own alignment, the batched
# scale pass) tuned afresh on the workload space, the way a user tunes
# (tools/bench_shapes.sh: sgemm-tune --space search_spaces/workload.json, emit, build
# bench_shapes, run the 59 problems), the benchmark run a second time on the same header
# (run-to-run spread), then a sweep of every kernel the selection could pick (for the
# replay tool) for at most 150 s. Logs to $OUT.
set -u
source tools/device_env.sh
W=/tmp/w3; mkdir -p $W
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,memory.used --format=csv; } > $OUT/date.txt
SPACE=search_spaces/workload.json OUT=$W/shapes timeout 330 tools/bench_shapes.sh 300 > $W/run.txt 2>&1; echo "bench_shapes.sh exit $?"
timeout 60 /tmp/bench_shapes/build/bench_shapes --seed 1 --count 48 > $W/shapes_run2.txt 2>&1; echo "second run exit $?"
timeout 170 /tmp/bench_shapes/build/bench_shapes --sweep --sweep-seconds 150 --seed 1 --count 48 > $W/sweep.csv 2> $W/sweep.err; echo "sweep exit $?"
cp $W/shapes/shapes.txt $W/shapes/shapes-tune.txt $W/shapes_run2.txt $OUT/ 2>/dev/null
gzip -c $W/shapes/shapes.db > $OUT/shapes.db.gz; gzip -c $W/sweep.csv > $OUT/sweep.csv.gz; cp $W/sweep.err $OUT/
grep -E "^tuned|geometric mean of|worst:|passed" $W/shapes/shapes.txt $W/shapes_run2.txt
grep -E " named | suite .*4096  4096  4096" $W/shapes/shapes.txt | cut -c1-120
tail -2 $W/sweep.err
