#!/usr/bin/env bash
# GPU call 1: the GPU tests (first run of `sgemm_blas_check huge` and of the route cache's
# mended hash and locks), then the route cache measured paired: this commit against
# .device/base (git archive ea1610b, the run-time half before routes were remembered; the
# kernels are the same), on the previous session's call1 database. Logs to $OUT.
set -u
W=/tmp/w1; mkdir -p $W
L=/usr/local/cuda/lib64; [ -e /usr/local/cuda/lib/libcublas.so ] && L=/usr/local/cuda/lib
export SGEMM_TUNE_CUDA_LIBRARY_DIR=$L SGEMM_TUNE_NVCC=/usr/local/cuda/bin/nvcc PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$L:${LD_LIBRARY_PATH:-}
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,memory.used --format=csv; } > $W/date.txt
OUT=$W/tests timeout 265 tools/gpu_session.sh --test-limit 255 > $W/session.out 2>&1; echo "gpu tests exit $?"
gunzip -c .device/call1.db.gz > $W/call1.db
OUT=$W/paired BASE=.device/base DB=$W/call1.db ROUNDS=2 SEEDS=1 timeout 290 tools/bench_shapes_paired.sh > $W/paired.txt 2>&1; echo "paired exit $?"
cd $W && rm -f call1.db* && tar czf $OUT/logs.tgz . && cp date.txt paired.txt $OUT/ 2>/dev/null
grep -E "PASSED|FAILED|huge|Skipped|SKIP" $W/tests/*.log | tail -12
tail -16 $W/paired.txt
