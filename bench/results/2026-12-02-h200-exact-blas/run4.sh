#!/usr/bin/env bash
# Call 4: every GPU test at the review mends (bfdf2ab).
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
OUT=$OUT/tests tools/gpu_session.sh --test-limit 450
grep -E "^\[ +(OK|FAILED) " "$OUT/tests/gpu_tests.log" | tail -25
gzip -f "$OUT/tests/gpu_tests.log"
