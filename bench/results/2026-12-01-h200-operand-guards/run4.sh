#!/usr/bin/env bash
# GPU call 4: the shapes benchmark on call 1's database (no tuning: the same tiles and
# machine code as call 1, only the header's run-time half changed: routes remembered), then
# the GPU tests. Logs to $OUT.
set -u
W=/tmp/w4; mkdir -p $W
L=/usr/local/cuda/lib64; [ -e /usr/local/cuda/lib/libcublas.so ] && L=/usr/local/cuda/lib
export SGEMM_TUNE_CUDA_LIBRARY_DIR=$L SGEMM_TUNE_NVCC=/usr/local/cuda/bin/nvcc PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$L:${LD_LIBRARY_PATH:-}
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $W/date.txt
gunzip -c .device/call1.db.gz > $W/call1.db
OUT=$W/shapes DB=$W/call1.db timeout 230 tools/bench_shapes.sh > /dev/null 2>&1; echo "bench_shapes exit $?"
OUT=$W/tests timeout 215 tools/gpu_session.sh --test-limit 200 > $W/session.out 2>&1; echo "gpu tests exit $?"
cd $W && rm -f call1.db* && tar czf $OUT/logs.tgz . && cp date.txt shapes/shapes.txt $OUT/ 2>/dev/null
grep -E "PASSED|FAILED" $W/tests/gpu_tests.log | tail -5
grep -E "^(geometric|worst|measured|database)" $W/shapes/shapes.txt | head -8
