#!/usr/bin/env bash
# Call 3: does a header carrying tiles tuned at BLAS shapes serve the random set better?
# Two headers emitted --from-source here from one database, 2026-12-02-h200-measured-dispatch/
# call6's workload tuning (`base`), and the same with call2's tuning of five BLAS shapes
# imported (`variant`: five more entries, each a tile the selection predicts with), each
# built here for sm_90 into .device/bs_base and .device/bs_variant. bench_shapes base variant
# variant base at beta 0 under the predicted dispatch, then one round each under the
# measured dispatch (SGEMM_TUNE_DISPATCH=measured). Logs to $OUT.
set -u
source tools/device_env.sh
T0=$(date +%s)
gunzip -f .device/bs_base/bench_shapes.gz .device/bs_variant/bench_shapes.gz  # carried compressed (the 64 MiB limit)
{ date -u; cat .device/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
run() {  # version, round, dispatch
  SGEMM_TUNE_DISPATCH=$3 timeout 80 .device/bs_$1/bench_shapes --seed 1 --count 48 > $OUT/$1-$3-round$2.txt 2>&1
  echo "$1 $3 round $2 exit $? after $(( $(date +%s) - T0 )) s: $(grep '^geometric mean' $OUT/$1-$3-round$2.txt | head -1)"
}
run base 1 predicted; run variant 1 predicted; run variant 2 predicted; run base 2 predicted
run base 1 measured; run variant 1 measured
for r in 1 2; do echo "predicted round $r"; python3 tools/bench_compare.py $OUT/base-predicted-round$r.txt $OUT/variant-predicted-round$r.txt --list; done > $OUT/compare.txt
echo "measured round 1" >> $OUT/compare.txt
python3 tools/bench_compare.py $OUT/base-measured-round1.txt $OUT/variant-measured-round1.txt --list >> $OUT/compare.txt
for r in 1 2; do python3 tools/bench_compare.py $OUT/base-predicted-round$r.txt $OUT/variant-predicted-round$r.txt; done
python3 tools/bench_compare.py $OUT/base-measured-round1.txt $OUT/variant-measured-round1.txt
