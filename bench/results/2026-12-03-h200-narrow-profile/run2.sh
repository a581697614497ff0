#!/usr/bin/env bash
# Call 2 (issue 11): the narrow bodies' interior stages copied unguarded (4 bytes at a time)
# and their aligned C stored as the wide bodies store it, paired against c5417aa on the
# session-16 workload database (both headers emitted --from-source, nvcc). Call 1's profile
# of 2047x1024x768: the narrow body issues 9% more instructions (221 a warp and stage, most
# of them the guards' address and bounds arithmetic) and waits 8.5% more cycles per
# instruction. Predicted: the narrow problems of long K 3-6% faster, the short-K ones
# unchanged (session 13 measured the same change 0.998x on the random set's narrow
# problems), the wide bodies and the fast kernel unchanged. Then ncu's stall reasons of the
# profiled pair through both programs. Programs built on the CPU machine and carried:
#   base: call 1's program (.device/progs/new of run1.sh, copied to .device/progs/base)
#   new:  the same commands over this tree's kernel_templates (/tmp/bsv1), stripped and
#         gzipped into .device/progs/new/bench_shapes.gz
#   tools/pack_for_device.sh --base c5417aa && gzip -9 .device/sgemm-tune .device/sgemm_tune_gpu_tests
# Run with carry [".device"]: OUT=$OUT bash bench/results/2026-12-03-h200-narrow-profile/run2.sh
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
T0=$(date +%s)
{ date -u; echo "new $(cat .device/COMMIT), base $(cat .device/base/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
for v in base new; do
  mkdir -p /tmp/bench_shapes_paired/$v/build
  gunzip -c .device/progs/$v/bench_shapes.gz >/tmp/bench_shapes_paired/$v/build/bench_shapes
  chmod +x /tmp/bench_shapes_paired/$v/build/bench_shapes
done
db=bench/results/2026-12-02-h200-measured-dispatch/call6/workload.db.gz
OUT=$OUT/listed BASE=.device/base DB=$db ROUNDS=2 SEEDS=1 DISPATCH=measured REUSE_BUILD=1 \
  PROBLEMS=bench/experiments/narrow_factors.txt timeout 200 tools/bench_shapes_paired.sh >"$OUT/paired-listed.txt" 2>&1
echo "listed exit $? after $(($(date +%s) - T0)) s"
OUT=$OUT/random BASE=.device/base DB=$db ROUNDS=2 SEEDS=1 DISPATCH=measured REUSE_BUILD=1 \
  timeout 220 tools/bench_shapes_paired.sh >"$OUT/paired-random.txt" 2>&1
echo "random exit $? after $(($(date +%s) - T0)) s"
for v in base new; do
  timeout 50 ncu --clock-control none -k 'regex:sgemm_double_buffered' --csv --page raw \
    --metrics 'gpu__time_duration.sum,launch__registers_per_thread,smsp__inst_executed.sum,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
    /tmp/bench_shapes_paired/$v/build/bench_shapes --problems bench/experiments/narrow_profile.txt --dispatch predicted \
    --verify-only --only 1,2 >"$OUT/ncu_stalls_$v.csv" 2>"$OUT/ncu_stalls_$v.err"
  echo "ncu $v exit $? after $(($(date +%s) - T0)) s"
done
(cd "$OUT" && tar czf logs.tgz listed random && rm -rf listed random)
for f in paired-listed paired-random; do
  echo "== $f"
  grep -A9 "^all rounds" "$OUT/$f.txt" | head -14
done
