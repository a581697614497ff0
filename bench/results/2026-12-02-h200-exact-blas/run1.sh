#!/usr/bin/env bash
# Call 1: every GPU test (GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn and the BLAS
# shape of GpuHeader new), then bench/experiments/blas_exact.json tuned (tiles of 2 and 4
# warps at five BLAS products, 1000^3 NN and NT, and two plain shapes), and `best` at its
# BLAS shapes.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
OUT=$OUT/tests tools/gpu_session.sh --test-limit 420 --time-limit 150 -- --space bench/experiments/blas_exact.json
for s in 1000x1000x1000:NT 1000x1000x1000:NN 1024x1536x512:TT 457x637x981:NN:col 1164x1102x439:NT; do
  .device/sgemm-tune best --db "$OUT/tests/tune.db" --shape $s
done 2>&1 | tee "$OUT/best.txt"
# SASS of cubins NVRTC compiled on the CPU machine (as the tuner does) for issue 12's and
# the medium products' kernels: cuobjdump is only on the GPU machine.
mkdir -p "$OUT/sass"
for c in .device/sass/*.cubin; do cuobjdump -sass "$c" > "$OUT/sass/$(basename "$c" .cubin).sass" 2>&1; done
ls -la "$OUT/sass"
