#!/usr/bin/env bash
# GPU call 5: ncu of four medium random problems that lose most against cuBLAS, both sides,
# through the header of 2026-12-02-h200-measured-dispatch/call6's tuning at 416e423
# (.device/bs_old): 7 (row TT 1164x1102x439, offset 1), 9 (row NN 4190x1988x201, offset 1),
# 23 (row TT 1024x1536x512, offset 3), 31 (row TT 2048x1024x768, offset 3). Light metrics
# for all four, the scheduler and warp-state sections for 9 and 23. Logs to $OUT.
set -u
source tools/device_env.sh
T0=$(date +%s)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
BS=.device/bs_old/bench_shapes
timeout 120 ncu --clock-control none -k 'regex:gemm|pack|scale|reduce|splitK' --csv --page raw \
  --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__waves_per_multiprocessor,sm__warps_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum \
  $BS --seed 1 --count 48 --only 7,9,23,31 --verify-only > $OUT/ncu_light.csv 2> $OUT/ncu_light.err; echo "ncu light exit $? after $(( $(date +%s) - T0 )) s"
timeout 150 ncu --clock-control none -k 'regex:gemm|pack|scale|reduce|splitK' --section SpeedOfLight --section WarpStateStats \
  --section SchedulerStats --section Occupancy --section LaunchStats --csv --page details \
  $BS --seed 1 --count 48 --only 9,23 --verify-only > $OUT/ncu_details.csv 2> $OUT/ncu_details.err; echo "ncu details exit $? after $(( $(date +%s) - T0 )) s"
gzip $OUT/ncu_light.csv $OUT/ncu_details.csv
tail -n 3 $OUT/ncu_light.err $OUT/ncu_details.err
