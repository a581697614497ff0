#!/usr/bin/env bash
# Call 1. The GPU tests after the edge launch was made one function (edge_launch picks the
# product's form and body; launch_edge_bodies in the run-time, CandidateKernel::launch in
# the tuner): GpuBlas.* and GpuHeader.*, the three side by side. Then the product end to
# end: search_spaces/workload.json tuned afresh, a header with machine code emitted,
# tools/bench_shapes built by nvcc here, seed 1 (predicted dispatch) and a sweep of every
# choice the selection weighs (SWEEP_SECONDS=60: today's kernels, for the selection's
# constants), then seed 2. Carry [".device"] (devbin.tgz).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
T0=$(date +%s)
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
mkdir -p "$OUT/tests"
for t in GpuBlas.EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn \
         GpuHeader.EveryPathOfAnEmittedHeaderMatchesCublas; do
  ( timeout 240 .device/sgemm_tune_gpu_tests --gtest_filter="$t" >"$OUT/tests/$t.log" 2>&1
    echo "$t exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt" ) &
done
wait
grep -hE "^\[  (PASSED|FAILED) |FAILED  \]" "$OUT"/tests/*.log | tee -a "$OUT/gpu.txt"
T1=$(date +%s)
OUT=$OUT/shapes CUDA_ARCHITECTURES=90 SPACE=search_spaces/workload.json SEED=1 SWEEP_SECONDS=60 \
  timeout 330 tools/bench_shapes.sh 120 >/dev/null 2>&1
echo "bench_shapes.sh exit $? after $(($(date +%s) - T1)) s" | tee -a "$OUT/gpu.txt"
program=/tmp/bench_shapes/build/bench_shapes
[[ -x "$program" ]] && timeout 60 "$program" --seed 2 --count 48 --dispatch predicted >"$OUT/shapes/seed2.txt" 2>&1
echo "seed 2 exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
[[ -f "$OUT/shapes/shapes.db" ]] && gzip "$OUT/shapes/shapes.db"
[[ -f "$OUT/shapes/sweep.csv" ]] && gzip "$OUT/shapes/sweep.csv"
grep -hE "^tuned|passed|worst|geometric|sweep exit|1000 +1000 +1000|3000 +3000 +3000|4096 +4096 +4100" \
  "$OUT/shapes/shapes.txt" "$OUT/shapes/seed2.txt" | cut -c1-140 | tee -a "$OUT/gpu.txt"
# At most a few files come back: the logs as one archive beside gpu.txt.
tar czf "$OUT/logs.tgz" -C "$OUT" tests shapes && rm -rf "$OUT/tests" "$OUT/shapes"
