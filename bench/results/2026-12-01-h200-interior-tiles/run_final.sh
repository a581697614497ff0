#!/usr/bin/env bash
# The final GPU call: the GPU tests and the shapes benchmark of a fresh workload tuning
# through the header. Logs under $W, copied to $OUT as logs.tgz.
set -u
W=/tmp/w; mkdir -p $W
L=/usr/local/cuda/lib64; [ -e /usr/local/cuda/lib/libcublas.so ] && L=/usr/local/cuda/lib
export SGEMM_TUNE_CUDA_LIBRARY_DIR=$L SGEMM_TUNE_NVCC=/usr/local/cuda/bin/nvcc PATH=/usr/local/cuda/bin:$PATH
OUT=$W timeout 235 tools/gpu_session.sh --test-limit 230 > $W/session.out 2>&1; grep -E "exit|PASSED|FAILED" $W/session.out
s=$(date +%s); OUT=$W/new SPACE=search_spaces/workload.json timeout 320 tools/bench_shapes.sh 60 > /dev/null 2>&1
echo "bench_shapes exit $?, $(( $(date +%s) - s )) s"
cd $W && tar czf $OUT/logs.tgz --exclude=shapes.db . && gzip -c new/shapes.db > $OUT/shapes.db.gz; cp new/shapes.txt $OUT/ 2>/dev/null
grep -E "^(tuned|geometric|worst)" $W/new/shapes.txt; grep -E "^ *[0-9]+ (suite|named)" $W/new/shapes.txt
