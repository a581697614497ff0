#!/usr/bin/env bash
# GPU call 3: three versions of the header on one database (call2's tuning of
# search_spaces/workload.json), emitted from source and built here in parallel:
#   base: .device/base, 9d852ea (the selection before this session);
#   sel:  .device/sel, the selection's split rates and block overhead refitted (SplitAdds);
#   new:  this tree, sel with the edge kernels' beta != 0 epilogue loading C a sub-tile at
#         a time before its stores.
# At beta = 0 (what the benchmark times): base, sel, new, then new, sel, base. At beta = 0.5
# (every call reads C): sel, new, new, sel. Every run verifies every problem at beta 0 and
# 0.5 on both sides. Logs to $OUT.
set -u
source tools/device_env.sh
W=/tmp/w3; mkdir -p $W
T0=$(date +%s)
{ date -u; cat .device/COMMIT .device/base/COMMIT .device/sel/COMMIT; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,memory.used --format=csv; } > $OUT/date.txt
gunzip -c .device/workload.db.gz > $W/workload.db
build() {  # version, tree
  mkdir -p $W/$1
  .device/sgemm-tune emit --db $W/workload.db --out $W/$1/sgemm_tuned.h --template-dir $2/kernel_templates --from-source > $W/$1/emit.txt 2>&1 &&
  cmake -S $2/tools/bench_shapes -B $W/$1/build -G Ninja -DSGEMM_TUNED_HEADER=$W/$1/sgemm_tuned.h > $W/$1/build.log 2>&1 &&
  cmake --build $W/$1/build >> $W/$1/build.log 2>&1 || { echo "$1 did not build"; tail -n 20 $W/$1/build.log; }
}
build base $PWD/.device/base & build sel $PWD/.device/sel & build new $PWD & wait
echo "built after $(( $(date +%s) - T0 )) s"
run() {  # version, beta, round
  timeout 50 $W/$1/build/bench_shapes --seed 1 --count 48 --beta $2 > $W/beta$2-$1-round$3.txt 2>&1
  echo "$1 beta $2 round $3 exit $?: $(grep '^geometric mean' $W/beta$2-$1-round$3.txt | head -1)"
}
run base 0 1; run sel 0 1; run new 0 1; run new 0 2; run sel 0 2; run base 0 2
run sel 0.5 1; run new 0.5 1; run new 0.5 2; run sel 0.5 2
tar czf $OUT/logs.tgz -C $W $(cd $W && ls beta*.txt) base/emit.txt sel/emit.txt new/emit.txt
grep -h "passed" $W/beta*.txt | sort | uniq -c
echo "done after $(( $(date +%s) - T0 )) s"
