#!/usr/bin/env bash
# GPU session 6, first call (2026-11-30): the GPU tests at the current commit, then the
# shape-suite benchmark with the adopted template (K loop unrolled by 8), tuned tables,
# header and side-by-side run.
source "$(dirname "$0")/session_common.sh"
OUT=$OUT tools/gpu_session.sh | tail -6
OUT=$OUT tools/bench_suite.sh 300 | tail -14
rm -f "$OUT/suite.db"  # too large to bring back
