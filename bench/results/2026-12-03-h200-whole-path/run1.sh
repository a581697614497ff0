#!/usr/bin/env bash
# Call 1 (issue 11): the whole path at this commit, as a user runs it (the script of the last
# such run: bench/results/2026-12-03-h200-realigned-selection/run2.sh, which runs
# bench/results/2026-12-02-h200-measured-dispatch/run5.sh): search_spaces/workload.json
# tuned afresh, a header emitted with its machine code, bench_shapes built there against it,
# the random set of seed 1 with the predicted and the measured dispatch (P M M P). Then ncu's
# durations of the kernels that run the one-float-off and B-transposed forms of 2048 x 1024
# x 768 (bench/experiments/narrow_factors.txt, problems 26 and 31-33) through that header:
# how long the packing kernels take beside the product.
# Carry [".device"] (tools/pack_for_device.sh, binaries gzipped).
set -u
cd "$(dirname "$0")/../../.." || exit 1
OUT=$OUT bash bench/results/2026-12-03-h200-realigned-selection/run2.sh
source tools/device_env.sh
timeout 60 ncu --clock-control none -k 'regex:pack|sgemm_double|scale' --csv --page raw \
  --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,dram__bytes.sum \
  /tmp/w6/build/bench_shapes --problems bench/experiments/narrow_factors.txt --dispatch predicted --verify-only \
  --only 26,31,32,33 >"$OUT/ncu_pack.csv" 2>"$OUT/ncu_pack.err"
echo "ncu pack exit $?"
grep -E "pack|sgemm" "$OUT/ncu_pack.csv" | cut -d, -f5,12- | cut -c1-160 | head -24
