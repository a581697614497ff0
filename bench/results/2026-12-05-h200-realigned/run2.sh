#!/usr/bin/env bash
# Call 2. Issue 11's figures afresh at main (92e5b16): the header emitted on the CPU machine
# from call 1's workload tuning by main's sgemm-tune (tune-main.db, 56 s of tuning), with its
# NVRTC machine code (42 MB; nvcc ran out of the CPU machine's 23 GB compiling a program
# with it, so tools/bench_shapes is built here, while the GPU tests at main run side by side).
# Then seeds 1, 2 and 3 with the predicted dispatch, 1 and 2 with the measured one; then the
# sweep of every choice the selection could make for seed 1's problems (bench_shapes
# --sweep, at most 120 s: the first sweep with splits as clusters).
# Carry [".device"]: devbin.tgz (sgemm-tune, sgemm_tune_gpu_tests), sgemm_tuned.h.xz.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
T0=$(date +%s)
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
mkdir -p "$OUT/logs"
xz -dkf .device/sgemm_tuned.h.xz
( { cmake -S tools/bench_shapes -B /tmp/fresh -G Ninja -DSGEMM_TUNED_HEADER="$PWD/.device/sgemm_tuned.h" \
      -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build /tmp/fresh; } >"$OUT/logs/build.log" 2>&1
  echo "build exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt" ) &
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
left=400
for t in GpuBlas.EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn \
         GpuHeader.EveryPathOfAnEmittedHeaderMatchesCublas; do
  ( timeout "$left" .device/sgemm_tune_gpu_tests --gtest_filter="$t" >"$OUT/logs/$t.log" 2>&1
    echo "$t exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt" ) &
done
wait
/tmp/fresh/bench_shapes --self-test --seed 1 --count 48 >"$OUT/logs/self-test.txt" 2>&1
echo "self-test exit $?" | tee -a "$OUT/gpu.txt"
for run in "1 predicted" "2 predicted" "3 predicted" "1 measured" "2 measured"; do
  set -- $run
  log=$OUT/logs/seed$1-$2.txt
  timeout 90 /tmp/fresh/bench_shapes --seed "$1" --count 48 --dispatch "$2" >"$log" 2>&1
  echo "seed $1 $2 exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$OUT/gpu.txt"
  grep -E "^worst| named " "$log" | cut -c1-130 | tee -a "$OUT/gpu.txt"
done
timeout 140 /tmp/fresh/bench_shapes --sweep --sweep-seconds 120 --seed 1 --count 48 >"$OUT/sweep.csv" 2>&1
echo "sweep exit $? after $(($(date +%s) - T0)) s: $(grep -c '^choice,' "$OUT/sweep.csv") choices; $(tail -1 "$OUT/sweep.csv")" | tee -a "$OUT/gpu.txt"
grep -hE "^\[  (PASSED|FAILED) |FAILED  \]" "$OUT"/logs/Gpu*.log | tee -a "$OUT/gpu.txt"
grep -h "WRONG\|Failure" -A3 "$OUT"/logs/Gpu*.log | head -20 | cut -c1-220 | tee -a "$OUT/gpu.txt"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
xz -T8 "$OUT/sweep.csv"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$OUT/logs"
