#!/usr/bin/env bash
# GPU call 4: the GPU tests (ctest label gpu, tools/gpu_session.sh) at 312a2fb: the
# selection with SplitAdds, through generated headers on every path. Logs to $OUT.
set -u
source tools/device_env.sh
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
OUT=$OUT/tests timeout 350 tools/gpu_session.sh --test-limit 340 > $OUT/tests.txt 2>&1; echo "gpu tests exit $?"
gzip -f $OUT/tests/gpu_tests.log 2>/dev/null
tail -n 25 $OUT/tests.txt
