#!/usr/bin/env bash
# Strips the tuner and the GPU tests from build/ into .device/, small enough to carry to a
# GPU machine (the full build folder is not). .device/ is ignored by git.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .device
strip -o .device/sgemm-tune build/tuner/sgemm-tune
strip -o .device/sgemm_tune_gpu_tests build/tests/sgemm_tune_gpu_tests
# The GPU machine gets no .git: the commit travels in a file, and logs name it.
echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench' 2>/dev/null || echo ' plus uncommitted changes')" >.device/COMMIT
ls -la .device
