#!/usr/bin/env bash
# GPU call 3: the staged transposed B (5b93283, the kernel of any operands) and the narrow
# bodies' unguarded interior (4a75fc3, the edge kernel's bodies for unaligned rows),
# measured paired against .device/base (git archive 7a11e07 of CMakeLists.txt, cmake,
# kernel_templates and tools/bench_shapes: the kernels before both) on the previous
# session's call1 database; the two changes touch different kernels, so each problem's
# ratio belongs to the one its path ran. Then the GPU tests. Logs to $OUT.
set -u
W=/tmp/w3; mkdir -p $W
L=/usr/local/cuda/lib64; [ -e /usr/local/cuda/lib/libcublas.so ] && L=/usr/local/cuda/lib
export SGEMM_TUNE_CUDA_LIBRARY_DIR=$L SGEMM_TUNE_NVCC=/usr/local/cuda/bin/nvcc PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$L:${LD_LIBRARY_PATH:-}
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,memory.used --format=csv; } > $W/date.txt
gunzip -c .device/call1.db.gz > $W/call1.db
OUT=$W/paired BASE=.device/base DB=$W/call1.db ROUNDS=2 SEEDS=1 timeout 270 tools/bench_shapes_paired.sh > $W/paired.txt 2>&1; echo "paired exit $?"
OUT=$W/tests timeout 250 tools/gpu_session.sh --test-limit 240 > $W/session.out 2>&1; echo "gpu tests exit $?"
cd $W && rm -f call1.db* && tar czf $OUT/logs.tgz . && cp date.txt paired.txt $OUT/ 2>/dev/null
tail -16 $W/paired.txt
grep -E "^\[ +(PASSED|FAILED)|^\[  FAILED" $W/tests/gpu_tests.log | tail -6
