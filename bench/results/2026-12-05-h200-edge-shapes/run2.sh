#!/usr/bin/env bash
# Call 2 (after call 1, and 1c if it ran). The tunings through their headers: A
# (search_spaces/workload.json), B (bench/experiments/workload_edges.json) and, if call 1c
# ran, C (workload_edges_ranked.json). run2_on_device.sh builds A's and B's programs on the
# GPU machine and then runs this; by hand, from the calls' databases (nvcc may need more
# memory than the CPU machine has for a header with its machine code):
#   for v in A B C; do mkdir -p /tmp/h$v; gunzip -k call1/tune-$v.db.gz   # C: call1c/
#     build/tuner/sgemm-tune emit --db call1/tune-$v.db --out /tmp/h$v/sgemm_tuned.h
#     cmake -S tools/bench_shapes -B /tmp/b$v -G Ninja -DSGEMM_TUNED_HEADER=/tmp/h$v/sgemm_tuned.h \
#       -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build /tmp/b$v; strip -o .device/bench_shapes-$v /tmp/b$v/bench_shapes
#   done; then .device/devbin.tgz holding bench_shapes-A, -B (and -C).
# The headers in alternating order, two rounds of seeds 1 and 2 (predicted dispatch), then
# seed 1 with the measured dispatch. What to read: named (1000^3, 3000^3, 4096x4096x4100)
# and random, B (and C) against A. Carry [".device"].
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L"
V="A B"; [ -x .device/bench_shapes-C ] && V="A B C"
R="B A"; [ -x .device/bench_shapes-C ] && R="C B A"
for v in $V; do
  .device/bench_shapes-$v --self-test --seed 1 --count 48 >"$L/self-test-$v.txt" 2>&1
  echo "self-test $v exit $?" | tee -a "$G"
done
for run in "1 predicted $V" "2 predicted $V" "1 predicted $R" "2 predicted $R" "1 measured $V"; do
  bench_round $run
done
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
