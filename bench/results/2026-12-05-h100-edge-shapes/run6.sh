#!/usr/bin/env bash
# Call 6 (H100): bench/experiments/small_products pdl (built on the CPU machine; the call ran
# it as pdl_rate, from bench/experiments/pdl/pdl_rate.cu, before that file became
# small_products.cu's pdl mode, measuring the same way): whether
# programmatic dependent launch shortens the edge kernel's small products back to back, in
# stream and in graph replay, against the template's own kernel and cuBLAS, each C checked;
# then the committed bench_shapes (A's header, rebuilt after its timing functions became one)
# with --graphs on call 5's problems, as a check against call 5's figures.
# Carry [".device"]: devbin.tgz with bench_shapes-A, bench_shapes-B and small_products.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
timeout 240 .device/small_products pdl >"$OUT/pdl_rate.txt" 2>&1
echo "small_products pdl exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
cat "$OUT/pdl_rate.txt" | tee -a "$G"
timeout 60 .device/bench_shapes-A --problems bench/results/2026-12-05-h100-edge-shapes/small_problems.txt --graphs \
  >"$OUT/graphs-predicted.txt" 2>&1
echo "graphs predicted exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
grep -E "^ +[0-9]+ " "$OUT/graphs-predicted.txt" | cut -c1-150 | tee -a "$G"
