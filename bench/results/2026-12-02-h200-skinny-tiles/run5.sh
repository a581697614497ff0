#!/usr/bin/env bash
# GPU call 5: bench/experiments/epilogue_wide_bodies.patch (the beta != 0 epilogue's loads
# of C in the edge kernel's wide bodies only) against 09ede26 (.device/base), both headers
# emitted from source on call2's database and built here in parallel. In the order that
# answers most if the call is cut short: beta 0 base, new; beta 0.5 base, new; beta 0 new,
# base. Each run's table goes to $OUT as it ends. Logs to $OUT.
set -u
source tools/device_env.sh
W=/tmp/w5; mkdir -p $W
T0=$(date +%s)
{ date -u; cat .device/COMMIT .device/base/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } > $OUT/date.txt
gunzip -c .device/workload.db.gz > $W/workload.db
build() {  # version, tree
  mkdir -p $W/$1
  .device/sgemm-tune emit --db $W/workload.db --out $W/$1/sgemm_tuned.h --template-dir $2/kernel_templates --from-source > $W/$1/emit.txt 2>&1 &&
  cmake -S $2/tools/bench_shapes -B $W/$1/build -G Ninja -DSGEMM_TUNED_HEADER=$W/$1/sgemm_tuned.h > $W/$1/build.log 2>&1 &&
  cmake --build $W/$1/build >> $W/$1/build.log 2>&1 || { echo "$1 did not build"; tail -n 20 $W/$1/build.log; }
}
build base $PWD/.device/base & build new $PWD & wait
echo "built after $(( $(date +%s) - T0 )) s"
run() {  # version, beta, round
  timeout 50 $W/$1/build/bench_shapes --seed 1 --count 48 --beta $2 > $OUT/beta$2-$1-round$3.txt 2>&1
  echo "$1 beta $2 round $3 exit $?: $(grep '^geometric mean' $OUT/beta$2-$1-round$3.txt | head -1)"
}
run base 0 1; run new 0 1; run base 0.5 1; run new 0.5 1; run new 0 2; run base 0 2
echo "done after $(( $(date +%s) - T0 )) s"
