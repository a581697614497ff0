#!/usr/bin/env bash
# Call 1 (issue 11): this session's two changes, paired against c794918 (the kernels call5 of
# bench/results/2026-12-03-h200-narrow-factors measured): the kernel of any operands prepares
# an unaligned C for its 4-byte split adds with the 4-byte scale pass again (its split
# products with such a C ran 6-13% slower with the realigned one), and the selection prices
# the edge kernel's split parts at 16 bytes per atomic for any C (split_adds). Predicted:
# the kernel of any operands' unaligned split products back to the base's time (the base is
# the slower there, so base/new about 1.07 on them), the predicted dispatch's random set up
# by about half a point (replay_sweep on call5's sweep: 85.4% -> 85.8%), the measured
# dispatch unchanged elsewhere. The programs are built on the CPU machine and carried in
# .device/progs (stripped, gzipped):
#   tools/pack_for_device.sh --base c794918
#   zcat bench/results/2026-12-02-h200-measured-dispatch/call6/workload.db.gz > /tmp/workload.db
#   OUT=/tmp/pcheck BASE=.device/base DB=/tmp/workload.db BUILD_ONLY=1 CUDA_ARCHITECTURES=90 \
#     tools/bench_shapes_paired.sh
#   for v in base new; do mkdir -p .device/progs/$v; strip -o .device/progs/$v/bench_shapes \
#     /tmp/bench_shapes_paired/$v/build/bench_shapes; gzip -9 .device/progs/$v/bench_shapes; done
#   gzip -9 .device/sgemm-tune .device/sgemm_tune_gpu_tests   # the tree and carry stay under 64 MiB
# Run with carry [".device"]: OUT=$OUT bash bench/results/2026-12-03-h200-realigned-selection/run1.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
echo "new $(cat .device/COMMIT), base $(cat .device/base/COMMIT)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv | tee "$OUT/gpu.txt"
for v in base new; do
  mkdir -p /tmp/bench_shapes_paired/$v/build
  gunzip -c .device/progs/$v/bench_shapes.gz >/tmp/bench_shapes_paired/$v/build/bench_shapes
  chmod +x /tmp/bench_shapes_paired/$v/build/bench_shapes
done
db=bench/results/2026-12-02-h200-measured-dispatch/call6/workload.db.gz
for dispatch in measured predicted; do
  OUT=$OUT/random-$dispatch BASE=.device/base DB=$db ROUNDS=2 SEEDS="1 2" DISPATCH=$dispatch REUSE_BUILD=1 \
    timeout 200 tools/bench_shapes_paired.sh >"$OUT/paired-random-$dispatch.txt" 2>&1
  echo "random $dispatch exit $?"
done
OUT=$OUT/listed BASE=.device/base DB=$db ROUNDS=1 SEEDS=1 DISPATCH=measured REUSE_BUILD=1 \
  PROBLEMS=bench/experiments/narrow_factors.txt timeout 80 tools/bench_shapes_paired.sh >"$OUT/paired-listed.txt" 2>&1
echo "listed exit $?"
(cd "$OUT" && tar czf logs.tgz random-measured random-predicted listed && rm -rf random-measured random-predicted listed)
for f in paired-random-measured paired-random-predicted paired-listed; do
  echo "== $f"
  grep -A9 "^all rounds" "$OUT/$f.txt" | head -14
done
