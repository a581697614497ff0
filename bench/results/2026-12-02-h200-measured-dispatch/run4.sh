#!/usr/bin/env bash
# GPU call 5: workspaces from the header's own memory pool, which keeps its memory, against
# the device's default pool (release threshold 0): two bench_shapes programs from the same
# header (.device/bs: 2acc870's runtime; .device/bs2: this commit's), predicted dispatch,
# beta 0 in rounds base new, new base. Then GpuBlas.* (packing through the new pool, and
# sgemm_tune::release_workspaces between packed products).
set -u
source tools/device_env.sh
T0=$(date +%s)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
run() {  # version (bs: base, bs2: new), round
  timeout 90 .device/$1/bench_shapes --seed 1 --count 48 > $OUT/$1-round$2.txt 2>&1
  echo "$1 round $2 exit $? after $(( $(date +%s) - T0 )) s: $(grep '^geometric mean' $OUT/$1-round$2.txt | head -1)"
}
run bs 1; run bs2 1; run bs2 2; run bs 2
SGEMM_TUNE_SOURCE_DIR=$PWD timeout 240 .device/sgemm_tune_gpu_tests --gtest_filter='GpuBlas.*' > $OUT/gpu_blas.log 2>&1
echo "GpuBlas exit $? after $(( $(date +%s) - T0 )) s"; grep -E "^\[  (PASSED|FAILED) |release_workspaces" $OUT/gpu_blas.log | tail -4
gzip -f $OUT/gpu_blas.log
