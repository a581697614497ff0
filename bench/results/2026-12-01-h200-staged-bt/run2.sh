#!/usr/bin/env bash
# GPU call 2: the staged transposed B (5b93283) measured paired against .device/base (git
# archive 7a11e07, the kernels before it) on the previous session's call1 database; then
# the header of this commit on that database through tools/bench_shapes.sh, with every
# choice the selection weighs timed (SWEEP_SECONDS) for refitting the kernel of any
# operands' slowdown. Logs to $OUT.
set -u
W=/tmp/w2; mkdir -p $W
L=/usr/local/cuda/lib64; [ -e /usr/local/cuda/lib/libcublas.so ] && L=/usr/local/cuda/lib
export SGEMM_TUNE_CUDA_LIBRARY_DIR=$L SGEMM_TUNE_NVCC=/usr/local/cuda/bin/nvcc PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$L:${LD_LIBRARY_PATH:-}
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,memory.used --format=csv; } > $W/date.txt
gunzip -c .device/call1.db.gz > $W/call1.db
OUT=$W/paired BASE=.device/base DB=$W/call1.db ROUNDS=2 SEEDS=1 timeout 270 tools/bench_shapes_paired.sh > $W/paired.txt 2>&1; echo "paired exit $?"
OUT=$W/shapes DB=$W/call1.db SWEEP_SECONDS=60 timeout 300 tools/bench_shapes.sh > /dev/null 2>&1; echo "bench_shapes exit $?"
gzip -f $W/shapes/sweep.csv 2>/dev/null
cd $W && rm -f call1.db* && tar czf $OUT/logs.tgz . && cp date.txt paired.txt shapes/shapes.txt $OUT/ 2>/dev/null; cp shapes/sweep.csv.gz $OUT/ 2>/dev/null
tail -16 $W/paired.txt
grep -E "^(geometric|worst|measured)" $W/shapes/shapes.txt | head -8
