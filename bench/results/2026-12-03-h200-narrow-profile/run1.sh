#!/usr/bin/env bash
# Call 1 (issue 11): why the edge kernel's narrow bodies (rows of A and B not 16-byte
# aligned) run 16-21% slower than its wide bodies on the same tile. ncu of the products in
# bench/experiments/narrow_profile.txt, each aligned and narrow, through the header of the
# session-16 workload tuning at this commit (predicted dispatch, so that each product runs
# one kernel); then the GPU tests of the generated header (GpuHeader.*), not run on this
# commit's kernels before. The program is built on the CPU machine and carried:
#   zcat bench/results/2026-12-02-h200-measured-dispatch/call6/workload.db.gz >/tmp/workload.db
#   build/tuner/sgemm-tune emit --db /tmp/workload.db --out /tmp/bsnow/sgemm_tuned.h \
#     --template-dir kernel_templates --from-source
#   cmake -S tools/bench_shapes -B /tmp/bsnow/build -G Ninja -DSGEMM_TUNED_HEADER=/tmp/bsnow/sgemm_tuned.h \
#     -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build /tmp/bsnow/build
#   mkdir -p .device/progs/new && strip -o .device/progs/new/bench_shapes /tmp/bsnow/build/bench_shapes
#   gzip -9 .device/progs/new/bench_shapes
#   tools/pack_for_device.sh && gzip -9 .device/sgemm-tune .device/sgemm_tune_gpu_tests
# Run with carry [".device"]: OUT=$OUT bash bench/results/2026-12-03-h200-narrow-profile/run1.sh
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
T0=$(date +%s)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } \
  | tee "$OUT/gpu.txt"
BS=/tmp/bench_shapes
gunzip -c .device/progs/new/bench_shapes.gz >$BS && chmod +x $BS
problems=bench/experiments/narrow_profile.txt
timeout 60 $BS --problems $problems --dispatch predicted >"$OUT/table.txt" 2>&1
echo "table exit $? after $(($(date +%s) - T0)) s"
timeout 150 ncu --clock-control none -k 'regex:sgemm_double_buffered' --set full --csv --page details \
  $BS --problems $problems --dispatch predicted --verify-only >"$OUT/ncu_full.csv" 2>"$OUT/ncu_full.err"
echo "ncu full exit $? after $(($(date +%s) - T0)) s"
timeout 100 ncu --clock-control none -k 'regex:sgemm_double_buffered' --csv --page raw \
  --print-metric-instances values \
  --metrics gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,smsp__inst_executed.sum,sass__inst_executed_per_opcode \
  $BS --problems $problems --dispatch predicted --verify-only >"$OUT/ncu_opcodes.csv" 2>"$OUT/ncu_opcodes.err"
echo "ncu opcodes exit $? after $(($(date +%s) - T0)) s"
gzip "$OUT/ncu_full.csv" "$OUT/ncu_opcodes.csv"
gunzip -c .device/sgemm_tune_gpu_tests.gz >/tmp/sgemm_tune_gpu_tests && chmod +x /tmp/sgemm_tune_gpu_tests
timeout 300 /tmp/sgemm_tune_gpu_tests --gtest_filter='GpuHeader.*' >"$OUT/gpu_header.log" 2>&1
echo "GpuHeader exit $? after $(($(date +%s) - T0)) s"
tail -n 4 "$OUT/gpu_header.log"
grep -E "^ +[0-9]+ listed" "$OUT/table.txt"
