#!/usr/bin/env bash
# Call 2: the GPU tests of the tuning pipeline, and run2.sh with the headers emitted and
# built on the GPU machine (nvcc needs more memory for a header with its machine code than
# the CPU machine has, session 33). The databases are those call 1 left in build-edge-shapes/ where the machine is still warm,
# else call 1's tune-A.db.gz and tune-B.db.gz carried in .device/. Carry [".device"].
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
mkdir -p build-edge-shapes
for v in A B; do  # a fresh machine: call 1's databases as carried in .device/
  [ -s build-edge-shapes/tune-$v.db ] || gunzip -c .device/tune-$v.db.gz >build-edge-shapes/tune-$v.db 2>/dev/null ||
    { rm -f build-edge-shapes/tune-$v.db; echo "no database of tuning $v: neither call 1's copy here nor .device/tune-$v.db.gz"; exit 3; }
done
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
T0=$(date +%s)
mkdir -p "$OUT/logs"
for v in A B; do
  ( mkdir -p build-edge-shapes/h$v
    .device/sgemm-tune emit --db build-edge-shapes/tune-$v.db --out build-edge-shapes/h$v/sgemm_tuned.h &&
    cmake -S tools/bench_shapes -B build-edge-shapes/b$v -G Ninja -DSGEMM_TUNED_HEADER=$PWD/build-edge-shapes/h$v/sgemm_tuned.h \
      -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build build-edge-shapes/b$v &&
    cp build-edge-shapes/b$v/bench_shapes .device/bench_shapes-$v ) >"$OUT/logs/build-$v.log" 2>&1 &
done
# Meanwhile the GPU tests of the tuning pipeline, which changed since their last GPU run:
# a tuning compiles only the edge bodies its BLAS shapes run (session 34), and the staged
# search times BLAS shapes on its finalists only, taking their probes again (session 35:
# GpuPipeline.StagedSearchTimesBlasShapesOnTheFinalistsOnly and
# GpuPipeline.AProbeThatFailedKeepsItsReasonAtTheShapesItWaitedFor are new). Correctness
# only: nothing is timed for a figure until they and the builds are done.
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
for shard in 0 1 2; do
  ( GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$shard timeout 200 .device/sgemm_tune_gpu_tests \
      --gtest_filter='GpuPipeline.*' >"$OUT/logs/GpuPipeline-$shard.log" 2>&1
    echo "GpuPipeline shard $shard exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/build.txt" ) &
done
( timeout 200 .device/sgemm_tune_gpu_tests --gtest_filter=GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn \
    >"$OUT/logs/GpuBlas.log" 2>&1
  echo "GpuBlas.ATunedBlasProduct... exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/build.txt" ) &
wait
grep -hE "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]" "$OUT"/logs/Gpu*.log | tee -a "$OUT/build.txt"
echo "headers built, tests done after $(($(date +%s) - T0)) s" | tee -a "$OUT/build.txt"
grep -h "^wrote" "$OUT"/logs/build-*.log | tee -a "$OUT/build.txt"
# run2.sh itself, on the programs just built (it unpacks devbin.tgz again, which holds no
# bench_shapes, so they stay), writing its own gpu.txt and logs.tgz.
mv "$OUT/logs" "$OUT/build-logs" && tar czf "$OUT/build-logs.tgz" -C "$OUT" build-logs && rm -rf "$OUT/build-logs"
bash bench/results/2026-12-05-h200-edge-shapes/run2.sh
