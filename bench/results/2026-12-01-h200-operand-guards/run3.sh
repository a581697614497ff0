#!/usr/bin/env bash
# GPU call 3: the GPU tests on the commit with the faulting-candidate test mended. Logs to $OUT.
set -u
L=/usr/local/cuda/lib64; [ -e /usr/local/cuda/lib/libcublas.so ] && L=/usr/local/cuda/lib
export SGEMM_TUNE_CUDA_LIBRARY_DIR=$L SGEMM_TUNE_NVCC=/usr/local/cuda/bin/nvcc PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$L:${LD_LIBRARY_PATH:-}
OUT=$OUT/tests timeout 230 tools/gpu_session.sh --test-limit 215 > $OUT/session.out 2>&1; echo "gpu tests exit $?"
grep -E "PASSED|FAILED|OK \]" $OUT/tests/gpu_tests.log | tail -22
