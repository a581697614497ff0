#!/usr/bin/env bash
# Call 1: every GPU test (the new GpuPipeline.BlasShapesAreVerifiedAndRecordedWithTheirOps
# among them), then a tuning of BLAS shapes on the small test space, with --json.
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT=$OUT/tests tools/gpu_session.sh --test-limit 420 --time-limit 120 -- --space tests/data/small.json \
  --shape 1000x1000x1000:NT --shape 1024x1536x512:TT --shape 1000x1000x1000:TN:col --shape 1024x1024x1024:NN
grep -E "^\[  (FAILED|PASSED|SKIPPED)|^\[       OK \] GpuPipeline.Blas" "$OUT/tests/gpu_tests.log" | tail -20
