#!/usr/bin/env bash
# Call 3. The level through headers, paired, with the tuning held fixed: one database
# (call2's 1-workload-L5, tuned at level 5), two headers emitted from it with machine code,
#   base: emit --compile-option=--ptxas-options=--register-usage-level=5
#   new:  the same database with its runs' compile_options rewritten to level 10, emit
#         --compile-option=--ptxas-options=--register-usage-level=10 (emit recompiles every
#         kernel at level 10 and ships that code)
# each built into tools/bench_shapes here (CUDA arch 90, stripped, xz -9), carried as
# .device/progs/{wl5,wl5as10}/bench_shapes.xz. The random sets of seeds 1 and 2 and the
# named shapes, two rounds, the header's default (predicted) dispatch. Both headers are the
# first emitted as string literals, one array per distinct kernel (36bfb7d): every problem
# is verified against cuBLAS (beta 0 over NaN, beta 0.5), and then GpuHeader.* runs
# the GPU tests of emitted headers.
# Carry [".device"] (tools/pack_for_device.sh --base HEAD at 36bfb7d).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
T0=$(date +%s)
{ date -u; echo "tree $(cat .device/COMMIT), base $(cat .device/base/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
# The database the two headers were emitted from (the paired script asks for it, and
# reads it only to build, which the carried programs make unnecessary).
tar xzf bench/results/2026-12-03-h200-register-usage-level/call2/call2.tgz -C /tmp tune/1-workload-L5.db.gz
gunzip -f /tmp/tune/1-workload-L5.db.gz
db=/tmp/tune/1-workload-L5.db
place() {  # place VERSION-AS PROGRAM
  mkdir -p /tmp/bench_shapes_paired/$1/build
  xz -dc .device/progs/$2/bench_shapes.xz >/tmp/bench_shapes_paired/$1/build/bench_shapes
  chmod +x /tmp/bench_shapes_paired/$1/build/bench_shapes
}
place base wl5; place new wl5as10
OUT=$OUT/level BASE=.device/base DB=$db ROUNDS=2 SEEDS="1 2" REUSE_BUILD=1 \
  timeout 300 tools/bench_shapes_paired.sh >"$OUT/paired-level.txt" 2>&1
echo "level exit $? after $(($(date +%s) - T0)) s"
(cd "$OUT" && tar czf logs.tgz level && rm -rf level)
timeout 240 .device/sgemm_tune_gpu_tests --gtest_filter='GpuHeader.*' >"$OUT/gpu_header.log" 2>&1
echo "GpuHeader exit $? after $(($(date +%s) - T0)) s"
grep -E "^\[  (PASSED|FAILED) |OK \]|FAILED  \]" "$OUT/gpu_header.log" | tail -n 4
grep -iE "wrong|mismatch|FAIL" "$OUT/paired-level.txt" | head -5
grep -A12 "^all rounds" "$OUT/paired-level.txt" | head -16
