#!/usr/bin/env bash
# Call 10 (H100): bench_shapes --sweep --graphs (new) with A's header over small_problems.txt
# and sweep_problems.txt: every choice of the header timed as CUDA graphs, cuBLAS too, the
# first sweep in GPU time. Carry [".device"]: devbin.tgz with bench_shapes-A.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
R=bench/results/2026-12-05-h100-edge-shapes
sweep_graphs A "$R/small_problems.txt" "$R/sweep_problems.txt"
