#!/usr/bin/env bash
# Call 3. The kernel of any operands as a kernel per body too (the tree in .device/COMMIT):
# the three GPU tests of the generated header side by side (as call 1), then the product
# end to end as call 2 ran it (a fresh tuning of search_spaces/workload.json, a header with
# machine code, tools/bench_shapes built there, seeds 1 and 2, predicted dispatch).
# Carry [".device"] (devbin.tgz).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
T0=$(date +%s)
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
for t in GpuBlas.EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn \
         GpuHeader.EveryPathOfAnEmittedHeaderMatchesCublas; do
  ( timeout 300 .device/sgemm_tune_gpu_tests --gtest_filter="$t" >"$OUT/$t.log" 2>&1
    echo "$t exit $? after $(($(date +%s) - T0)) s" ) &
done
wait
grep -hE "^\[  (PASSED|FAILED) |OK \]|FAILED  \]" "$OUT"/Gpu*.log
rm -rf /tmp/sgemm_tune_gpu_* /tmp/bench_shapes*
T0=$(date +%s)
OUT=$OUT/shapes CUDA_ARCHITECTURES=90 SPACE=search_spaces/workload.json SEED=1 timeout 330 tools/bench_shapes.sh 120 >/dev/null 2>&1
echo "bench_shapes.sh exit $? after $(($(date +%s) - T0)) s"
program=$(ls -d /tmp/bench_shapes*/build/bench_shapes 2>/dev/null | head -1)
[[ -x "$program" ]] && timeout 60 "$program" --seed 2 --count 48 --dispatch predicted >"$OUT/shapes/seed2.txt" 2>&1
echo "seed 2 exit $? after $(($(date +%s) - T0)) s"
grep -E "^tuned|wrote|passed|worst|geometric" "$OUT/shapes/shapes.txt" "$OUT/shapes/seed2.txt" | head -12
grep -E "1000 +1000 +1000|3000 +3000 +3000|4096 +4096 +4100" "$OUT/shapes/shapes.txt" | cut -c1-130
gzip "$OUT/shapes/shapes.db"
