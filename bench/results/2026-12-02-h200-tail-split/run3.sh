#!/usr/bin/env bash
# GPU call 3: GpuBlas.* with the test mended after call2 (its count of edge cases, and the
# refusal lines carrying the fields it parses), then the same two headers as call2 under the
# measured dispatch (each product's first call times the 8 kernels ranked fastest, tail
# splits among them): bench_shapes old new new old at beta 0. Logs to $OUT.
set -u
source tools/device_env.sh
T0=$(date +%s)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
SGEMM_TUNE_SOURCE_DIR=$PWD timeout 240 .device/sgemm_tune_gpu_tests --gtest_filter='GpuBlas.*' > $OUT/gpublas.txt 2>&1
echo "GpuBlas exit $? after $(( $(date +%s) - T0 )) s: $(grep -E '^\[  (PASSED|FAILED)' $OUT/gpublas.txt | tr '\n' ' ')"
gzip $OUT/gpublas.txt
run() {  # version, round
  timeout 60 .device/bs_$1/bench_shapes --seed 1 --count 48 --dispatch measured > $OUT/measured-$1-round$2.txt 2>&1
  echo "$1 round $2 exit $? after $(( $(date +%s) - T0 )) s: $(grep '^geometric mean' $OUT/measured-$1-round$2.txt | head -1)"
}
run old 1; run new 1; run new 2; run old 2
for r in 1 2; do echo "round $r"; python3 tools/bench_compare.py $OUT/measured-old-round$r.txt $OUT/measured-new-round$r.txt --list; done > $OUT/compare.txt
for r in 1 2; do python3 tools/bench_compare.py $OUT/measured-old-round$r.txt $OUT/measured-new-round$r.txt | head -4; done
