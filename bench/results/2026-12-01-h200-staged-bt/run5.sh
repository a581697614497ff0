#!/usr/bin/env bash
# GPU call 5 (the session's last device time, 271 s): the narrow bodies' spread 4-byte
# copies (1f0f4bb) measured paired against .device/base (tools/pack_for_device.sh --base
# 7a11e07: the kernels before; bench_shapes_paired.sh now builds both at once) on the
# previous session's call1 database, one round; then the GPU test of the BLAS entry point
# (GpuBlas: every layout, op pair, padding, offset and edge shape through an emitted header,
# each entry's edge kernel over odd shapes with rows aligned and not, and the huge leading
# dimensions). Logs to $OUT.
set -u
W=/tmp/w5; mkdir -p $W
L=/usr/local/cuda/lib64; [ -e /usr/local/cuda/lib/libcublas.so ] && L=/usr/local/cuda/lib
export SGEMM_TUNE_CUDA_LIBRARY_DIR=$L SGEMM_TUNE_NVCC=/usr/local/cuda/bin/nvcc PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$L:${LD_LIBRARY_PATH:-}
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,memory.used --format=csv; } > $W/date.txt
gunzip -c .device/call1.db.gz > $W/call1.db
OUT=$W/paired BASE=.device/base DB=$W/call1.db ROUNDS=1 SEEDS=1 timeout 160 tools/bench_shapes_paired.sh > $W/paired.txt 2>&1; echo "paired exit $?"
cp $W/paired.txt $W/date.txt $OUT/; tar czf $OUT/paired-logs.tgz -C $W paired
SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD timeout 60 .device/sgemm_tune_gpu_tests --gtest_filter='GpuBlas.*' > $W/gpu_blas.log 2>&1; echo "GpuBlas exit $?"
cp $W/gpu_blas.log $OUT/
tail -6 $W/paired.txt
grep -cE " ok$" $W/gpu_blas.log; grep -E "^\[ +(PASSED|FAILED|OK)|^\[  FAILED|FAIL" $W/gpu_blas.log | tail -4
