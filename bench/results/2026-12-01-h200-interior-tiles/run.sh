#!/usr/bin/env bash
# One GPU call: the K-major A experiment, the GPU tests, the shapes benchmark of a fresh
# workload tuning, and the paired benchmark against the kernels of .device/base.
# Run from the repository root on the GPU machine with .device carried; logs under $W,
# copied to $OUT as logs.tgz.
set -u
W=/tmp/w; mkdir -p $W
L=/usr/local/cuda/lib64; [ -e /usr/local/cuda/lib/libcublas.so ] && L=/usr/local/cuda/lib
export SGEMM_TUNE_CUDA_LIBRARY_DIR=$L SGEMM_TUNE_NVCC=/usr/local/cuda/bin/nvcc PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$L:${LD_LIBRARY_PATH:-}
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $W/date.txt
timeout 60 .device/k_major_a 4096 4096 4096 5 > $W/kma-4096.txt 2>&1; echo "k_major_a exit $?"
OUT=$W timeout 170 tools/gpu_session.sh --test-limit 160 > $W/session.out 2>&1; grep -E "exit|PASSED|FAILED" $W/session.out
OUT=$W/new SPACE=search_spaces/workload.json timeout 200 tools/bench_shapes.sh 60 > /dev/null 2>&1; echo "bench_shapes exit $?"
OUT=$W/paired BASE=.device/base DB=$W/new/shapes.db ROUNDS=2 SEEDS=1 timeout 230 tools/bench_shapes_paired.sh > $W/paired.txt 2>&1; echo "paired exit $?"
cd $W && tar czf $OUT/logs.tgz . && cp new/shapes.txt paired.txt kma-4096.txt $OUT/ 2>/dev/null
grep -E "^(geometric|worst|named|suite)" $W/new/shapes.txt | head -12
tail -16 $W/paired.txt
tail -12 $W/kma-4096.txt
