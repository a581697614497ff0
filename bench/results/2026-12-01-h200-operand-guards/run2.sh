#!/usr/bin/env bash
# GPU call 2: the GPU tests (ctest -L gpu through tools/gpu_session.sh), then the experiment
# of tiles 32 wide: bench/experiments/workload_small_tiles.json tuned and benchmarked as
# call 1's workload was, with every choice swept for 40 s. Logs to $OUT.
set -u
W=/tmp/w2; mkdir -p $W
L=/usr/local/cuda/lib64; [ -e /usr/local/cuda/lib/libcublas.so ] && L=/usr/local/cuda/lib
export SGEMM_TUNE_CUDA_LIBRARY_DIR=$L SGEMM_TUNE_NVCC=/usr/local/cuda/bin/nvcc PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$L:${LD_LIBRARY_PATH:-}
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $W/date.txt
OUT=$W/tests timeout 215 tools/gpu_session.sh --test-limit 200 > $W/session.out 2>&1; echo "gpu tests exit $?"
OUT=$W/small SPACE=bench/experiments/workload_small_tiles.json SWEEP_SECONDS=40 timeout 320 tools/bench_shapes.sh 120 > /dev/null 2>&1; echo "bench_shapes exit $?"
gzip -c $W/small/shapes.db > $W/small/shapes.db.gz 2>/dev/null; rm -f $W/small/shapes.db $W/small/shapes.db-*
gzip $W/small/sweep.csv 2>/dev/null
cd $W && tar czf $OUT/logs.tgz . && cp date.txt $OUT/ && cp small/shapes.txt small/shapes.db.gz small/sweep.csv.gz $OUT/ 2>/dev/null
grep -E "tests passed|tests failed|Passed|Failed|\*\*\*" $W/session.out | tail -25
grep -E "^(geometric|worst|tuned|measured|wrote)" $W/small/shapes.txt | head -12
