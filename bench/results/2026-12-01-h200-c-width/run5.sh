#!/usr/bin/env bash
# GPU call 5 (the session's last 254 s of device time): bench/experiments/epilogue_prefetch_c.patch
# measured on programs built on the CPU machine (bench_shapes_paired.sh BUILD_ONLY=1
# CUDA_ARCHITECTURES=90, call3's database, headers from source): .device/bs_base is 0b46268,
# .device/bs_new the same with the patch. Timed at beta = 0.5 (bench_shapes --beta 0.5),
# where the epilogue reads C, two rounds in alternating order; then at beta = 0, one round,
# for the suite. Logs to $OUT.
set -u
source tools/device_env.sh
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
run() { timeout 35 .device/bs_$1 --seed 1 --count 48 --beta $2 > $OUT/beta$2-$1-round$3.txt 2>&1; echo "$1 beta $2 round $3 exit $?"; }
run base 0.5 1; run new 0.5 1
run new 0.5 2; run base 0.5 2
run base 0 1; run new 0 1
grep -H "geometric mean of" $OUT/*.txt
