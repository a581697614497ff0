#!/usr/bin/env bash
# GPU call 2: the GPU tests (ctest label gpu, tools/gpu_session.sh), with the measured
# dispatch's check through a generated header (sgemm_blas_check measured). Logs to $OUT.
set -u
source tools/device_env.sh
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
OUT=$OUT/tests timeout 420 tools/gpu_session.sh --test-limit 400 > $OUT/tests.txt 2>&1; echo "gpu tests exit $?"
gzip -f $OUT/tests/gpu_tests.log 2>/dev/null
tail -n 25 $OUT/tests.txt
