#!/usr/bin/env bash
# GPU call 1: a workload tuning and the shipped header against cuBLAS (bench_shapes), then
# the paired benchmark of this commit's kernels against .device/base's (git archive 3dccd0b)
# on that database. Run from the repository root with .device carried; logs to $OUT.
set -u
W=/tmp/w; mkdir -p $W
L=/usr/local/cuda/lib64; [ -e /usr/local/cuda/lib/libcublas.so ] && L=/usr/local/cuda/lib
export SGEMM_TUNE_CUDA_LIBRARY_DIR=$L SGEMM_TUNE_NVCC=/usr/local/cuda/bin/nvcc PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$L:${LD_LIBRARY_PATH:-}
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $W/date.txt
OUT=$W/new SPACE=search_spaces/workload.json timeout 280 tools/bench_shapes.sh 60 > /dev/null 2>&1; echo "bench_shapes exit $?"
OUT=$W/paired BASE=.device/base DB=$W/new/shapes.db ROUNDS=2 SEEDS=1 timeout 260 tools/bench_shapes_paired.sh > $W/paired.txt 2>&1; echo "paired exit $?"
gzip -c $W/new/shapes.db > $W/new/shapes.db.gz 2>/dev/null; rm -f $W/new/shapes.db $W/new/shapes.db-*
cd $W && tar czf $OUT/logs.tgz . && cp new/shapes.txt paired.txt date.txt $OUT/ 2>/dev/null; cp new/shapes.db.gz $OUT/ 2>/dev/null
grep -E "^(geometric|worst|tuned|measured)" $W/new/shapes.txt | head -12
tail -22 $W/paired.txt
