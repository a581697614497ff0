#!/usr/bin/env bash
# Call 2 (session 41): bench/experiments/cublas_graph_workspace, built on the CPU machine
# (nvcc -O2 -arch=sm_90 ... -lcublas) and carried as .device/cublas_graph_workspace:
# whether cuBLAS captured into a graph with the handle's default workspace (as
# tools/bench_shapes --graphs captures it) carries nodes besides its kernels, and what
# they cost per call against a workspace of its own (as the tuner's graphs timing).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
timeout 120 .device/cublas_graph_workspace 2>&1 | tee "$OUT/cublas_graph_workspace.txt"
