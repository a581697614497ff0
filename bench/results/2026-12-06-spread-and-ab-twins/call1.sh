#!/usr/bin/env bash
# Call 1 (session 44): the two calls session 43 prepared, in one device call.
# 1. ../2026-12-06-narrow-spread/call1.sh (the narrow edge bodies' 4-byte copies spread a
#    quarter tile apart, a704fad, against 4a455ae's side by side), logs under $OUT/spread.
# 2. ../2026-12-06-aligned-twins/call2.sh (the triplets of bench/experiments/aligned_ab_twins.txt:
#    drawn / A and B aligned, ldc as drawn / all aligned), logs under $OUT/abtwins. Its
#    program is the base program of step 1: W3a's database, 4a455ae's template, the header
#    emitted --from-source and compiled by nvcc (call2.sh's header named the header with the
#    database's NVRTC machine code; either program serves, since the triplets compare forms
#    of one problem within one program).
# Carry [".device"]: devbin.tgz with sgemm-tune and sgemm_tune_gpu_tests (a704fad),
# bench_shapes-base and bench_shapes-new (tools/bench_shapes_paired.sh, BUILD_ONLY=1,
# CUDA_ARCHITECTURES=90). The sweep of step 2 stops after 100 s (device time was scarce).
# About 6 minutes.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
top=$OUT
OUT=$top/spread; mkdir -p "$OUT"; export OUT
bash bench/results/2026-12-06-narrow-spread/call1.sh
cp .device/bench_shapes-base .device/bench_shapes-W3a
OUT=$top/abtwins; mkdir -p "$OUT"; export OUT
SWEEP_SECONDS=100 bash bench/results/2026-12-06-aligned-twins/call2.sh >/dev/null
cat "$OUT/gpu.txt"
