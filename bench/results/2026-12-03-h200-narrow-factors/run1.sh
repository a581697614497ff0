#!/usr/bin/env bash
# Call 1 (issue 11). Where the random set loses: bench/experiments/narrow_factors.txt (eight
# of the random set's shapes, row-major, in every op pair, each wide, with narrow A and B,
# and all one float off) through a header of the session-16 workload database
# (bench/results/2026-12-02-h200-measured-dispatch/call6/workload.db.gz), measured dispatch,
# then every kernel the selection could pick timed for each (the sweep: the same tile and
# split, wide against narrow). Then ncu of the twelve forms of 1164x1102x439 (predicted
# dispatch, verification calls only).
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
cat .device/COMMIT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv | tee "$OUT/gpu.txt"
W=/tmp/w; mkdir -p $W
zcat bench/results/2026-12-02-h200-measured-dispatch/call6/workload.db.gz > $W/workload.db
start=$(date +%s)
OUT=$OUT/factors DB=$W/workload.db PROBLEMS=bench/experiments/narrow_factors.txt DISPATCH=measured \
  SWEEP_SECONDS=150 timeout 420 tools/bench_shapes.sh > /dev/null 2>&1
echo "bench_shapes exit $? $(( $(date +%s) - start )) s"
tail -8 $OUT/factors/shapes.txt
start=$(date +%s)
timeout 150 ncu --clock-control none -k regex:sgemm_double_buffered -c 60 --section SpeedOfLight \
  --section WarpStateStats --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
  /tmp/bench_shapes/build/bench_shapes --problems bench/experiments/narrow_factors.txt --only 1,2,3,4,5,6,7,8,9,10,11,12 \
  --verify-only --dispatch predicted > $OUT/ncu-1164.txt 2>&1
echo "ncu exit $? $(( $(date +%s) - start )) s"
cd $OUT && tar czf factors.tgz factors ncu-1164.txt && rm -rf factors ncu-1164.txt
