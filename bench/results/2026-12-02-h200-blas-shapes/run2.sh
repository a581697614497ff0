#!/usr/bin/env bash
# Call 2: the workload space's parameters and strategy, tuned at five BLAS shapes like the
# random set's worst (sgemm-tune --shape replaces the space's shapes); the database comes
# back for headers built here.
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT=$OUT/blas tools/gpu_session.sh --no-tests --time-limit 520 -- --space search_spaces/workload.json \
  --shape 1024x1536x512:TT --shape 2746x260x355:TN:col --shape 1164x1102x439:NT --shape 457x637x981:NN:col \
  --shape 4190x1988x201:TN
gzip -k "$OUT/blas/tune.db"; rm -f "$OUT/blas/tune.db"
