#!/usr/bin/env bash
# Call 2 (after call 1). The two tunings through their headers: A (search_spaces/workload.json)
# and B (bench/experiments/workload_edges.json). Prepared on the CPU machine from call 1's
# databases, before this call:
#   for v in A B; do mkdir -p /tmp/h$v; gunzip -k call1/tune-$v.db.gz
#     build/tuner/sgemm-tune emit --db call1/tune-$v.db --out /tmp/h$v/sgemm_tuned.h
#     cmake -S tools/bench_shapes -B /tmp/b$v -G Ninja -DSGEMM_TUNED_HEADER=/tmp/h$v/sgemm_tuned.h \
#       -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build /tmp/b$v; strip -o .device/bench_shapes-$v /tmp/b$v/bench_shapes
#   done; then .device/devbin.tgz holding sgemm-tune, sgemm_tune_gpu_tests, bench_shapes-A, -B.
# First the GPU tests that tune BLAS products (the bodies a run compiles are now only
# those its shapes run); then A and B in alternating
# order, two rounds of seeds 1 and 2 (predicted dispatch), then seed 1 with the measured
# dispatch. What to read: named (1000^3, 3000^3, 4096x4096x4100) and random, B against A.
# Carry [".device"].
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
T0=$(date +%s)
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
mkdir -p "$OUT/logs"
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
# The two GPU tests that tune BLAS shapes (the measure worker loads only the bodies a run
# compiled), side by side.
for t in GpuPipeline.BlasShapesAreVerifiedAndRecordedWithTheirOps GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn; do
  ( timeout 240 .device/sgemm_tune_gpu_tests --gtest_filter="$t" >"$OUT/logs/$t.log" 2>&1
    echo "$t exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt" ) &
done
wait
for v in A B; do
  .device/bench_shapes-$v --self-test --seed 1 --count 48 >"$OUT/logs/self-test-$v.txt" 2>&1
  echo "self-test $v exit $?" | tee -a "$OUT/gpu.txt"
done
for run in "1 predicted A B" "2 predicted A B" "1 predicted B A" "2 predicted B A" "1 measured A B"; do
  set -- $run
  seed=$1 dispatch=$2; shift 2
  for v in "$@"; do
    log=$OUT/logs/$v-seed$seed-$dispatch-$(date +%s).txt
    timeout 90 .device/bench_shapes-$v --seed "$seed" --count 48 --dispatch "$dispatch" >"$log" 2>&1
    echo "$v seed $seed $dispatch exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$OUT/gpu.txt"
    grep -E "^worst| named " "$log" | cut -c1-130 | tee -a "$OUT/gpu.txt"
  done
done
grep -hE "^\[  (PASSED|FAILED) |FAILED  \]" "$OUT"/logs/Gpu*.log | tee -a "$OUT/gpu.txt"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$OUT/logs"
