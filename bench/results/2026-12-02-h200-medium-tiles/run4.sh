#!/usr/bin/env bash
# GPU call 4: the staged epilogue for unaligned C only (an aligned transposed C keeps its
# 16-byte stores and atomics): the header of 2026-12-02-h200-measured-dispatch/call6's
# tuning emitted from source by 416e423 (.device/bs_old) and by 416e423 with the refined
# staged epilogue (.device/bs_stage), both built on the CPU machine for sm_90; bench_shapes
# old new new old at beta 0 and 0.5. Then the GPU tests of this tree (tools/gpu_session.sh,
# no tuning). Logs to $OUT.
set -u
source tools/device_env.sh
T0=$(date +%s)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
run() {  # version, beta, round
  timeout 90 .device/bs_$1/bench_shapes --seed 1 --count 48 --beta $2 > $OUT/beta$2-$1-round$3.txt 2>&1
  echo "$1 beta $2 round $3 exit $? after $(( $(date +%s) - T0 )) s: $(grep '^geometric mean' $OUT/beta$2-$1-round$3.txt | head -1)"
}
for beta in 0 0.5; do run old $beta 1; run stage $beta 1; run stage $beta 2; run old $beta 2; done
OUT=$OUT/tests timeout 420 tools/gpu_session.sh --test-limit 400 > $OUT/tests.txt 2>&1; echo "gpu tests exit $? after $(( $(date +%s) - T0 )) s"
tail -n 8 $OUT/tests.txt
for beta in 0 0.5; do for r in 1 2; do echo "beta $beta round $r"; python3 tools/bench_compare.py $OUT/beta$beta-old-round$r.txt $OUT/beta$beta-stage-round$r.txt | head -9; done; done | tee $OUT/compare.txt
# Few files come back: the tables and the tests' logs in one archive.
gzip -f $OUT/tests/gpu_tests.log
tar czf $OUT/logs.tgz -C $OUT $(cd $OUT && ls beta*.txt) tests && rm -rf $OUT/beta*.txt $OUT/tests
