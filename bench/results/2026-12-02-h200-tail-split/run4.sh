#!/usr/bin/env bash
# GPU call 4: every GPU test at a8f3d86 (the review's mends: no tail split that splits
# nothing, the machine code's interface recorded and checked, GpuBlas's whole waves with a
# split last wave). Logs to $OUT.
set -u
source tools/device_env.sh
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
OUT=$OUT/tests tools/gpu_session.sh --test-limit 540 > $OUT/session-out.txt 2>&1
echo "session exit $?"
tail -n 12 $OUT/tests/session.txt
grep -E "^\[  (FAILED|PASSED|SKIPPED) " $OUT/tests/gpu_tests.log | head -20
grep -c " ok$" $OUT/tests/gpu_tests.log; grep -c "WRONG$" $OUT/tests/gpu_tests.log
gzip $OUT/tests/gpu_tests.log
