# The steps this folder's calls share, sourced by each after it has cd'd to the repository
# root. OUT is the device tool's; T0 (the call's start) and G (the summary file, printed and
# returned) are set by call_start, or by the caller; L (the log folder) by the caller.

# The call's first lines: when, which tree, which GPU at what clock.
call_header() {
  { date -u; echo "tree $(cat .device/COMMIT)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$G"
}

# call_start [SUMMARY]: the start of a call whose binaries travel in .device/devbin.tgz:
# unpacks them, sets T0 and G ($OUT/SUMMARY, gpu.txt unless named, so that two calls run
# in one keep a summary each) and writes the header.
call_start() {
  tar xzf .device/devbin.tgz -C .device
  T0=$(date +%s) G=$OUT/${1:-gpu.txt}
  call_header
}

# tune NAME SPACE SECONDS DB: this tree's sgemm-tune on SPACE into DB, stopped by SIGINT
# after SECONDS (what was measured is kept, and the same command resumes it); its counts
# and best tiles per shape into the summary, the database checkpointed so that it is one
# file.
tune() {
  mkdir -p "$L/tune-$1"
  timeout -s INT "$3" .device/sgemm-tune --space "$2" --db "$4" --top 3 \
    >"$L/tune-$1/tune.txt" 2>"$L/tune-$1/tune.log"
  echo "tune $1 ($2) exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
  grep -E "^stage|elapsed" "$L/tune-$1/tune.log" | tail -2 | tee -a "$G"
  grep -E "^(candidates|search|compile|wall):" "$L/tune-$1/tune.txt" | tee -a "$G"
  echo "== $1: best per shape" | tee -a "$G"
  grep -E "^[0-9]+x[0-9]+x[0-9]+.*cuBLAS" -A2 "$L/tune-$1/tune.txt" | grep -vE "rank|^--" | cut -c1-120 | tee -a "$G"
  python3 -c "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(TRUNCATE)')" "$4"
}

# build_program V: the header of build-edge-shapes/tune-V.db emitted, tools/bench_shapes
# built on it (on the GPU machine: nvcc needs more memory for a header with its machine
# code than the CPU machine has, session 33) and put at .device/bench_shapes-V.
build_program() {
  mkdir -p "build-edge-shapes/h$1"
  { .device/sgemm-tune emit --db "build-edge-shapes/tune-$1.db" --out "build-edge-shapes/h$1/sgemm_tuned.h" &&
    cmake -S tools/bench_shapes -B "build-edge-shapes/b$1" -G Ninja \
      -DSGEMM_TUNED_HEADER="$PWD/build-edge-shapes/h$1/sgemm_tuned.h" -DCMAKE_CUDA_ARCHITECTURES=90 &&
    cmake --build "build-edge-shapes/b$1" && cp "build-edge-shapes/b$1/bench_shapes" ".device/bench_shapes-$1"; } \
    >"$L/build-$1.log" 2>&1
  echo "build $1 exit $? after $(($(date +%s) - T0)) s: $(grep -h '^wrote' "$L/build-$1.log")" | tee -a "$G"
}

# pipeline_gpu_tests SECONDS: the GPU tests of the tuning pipeline, changed since their
# last GPU run (a tuning compiles only the edge bodies its BLAS shapes run, session 34; the
# staged search times BLAS shapes on its finalists only, taking their probes again,
# session 35): GpuPipeline.* in three shards and the tuned-BLAS-product test, side by side,
# each stopped after SECONDS. Correctness only: nothing is timed for a figure meanwhile.
pipeline_gpu_tests() {
  export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
  for shard in 0 1 2; do
    ( GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$shard timeout "$1" .device/sgemm_tune_gpu_tests \
        --gtest_filter='GpuPipeline.*' >"$L/GpuPipeline-$shard.log" 2>&1
      echo "GpuPipeline shard $shard exit $? after $(($(date +%s) - T0)) s" | tee -a "$G" ) &
  done
  ( timeout "$1" .device/sgemm_tune_gpu_tests --gtest_filter=GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn \
      >"$L/GpuBlas.log" 2>&1
    echo "GpuBlas.ATunedBlasProduct... exit $? after $(($(date +%s) - T0)) s" | tee -a "$G" ) &
  wait
  grep -hE "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]" "$L"/Gpu*.log | tee -a "$G"
}

# bench_round SEED DISPATCH V...: .device/bench_shapes-V for each V in turn, 48 random
# problems of SEED with the predicted or measured dispatch, each stopped after
# BENCH_SECONDS (90 unless set); its means, worst problem and named shapes into the summary.
bench_round() {
  local seed=$1 dispatch=$2 v log
  shift 2
  for v in "$@"; do
    log=$L/$v-seed$seed-$dispatch-$(date +%s).txt
    timeout "${BENCH_SECONDS:-90}" ".device/bench_shapes-$v" --seed "$seed" --count 48 --dispatch "$dispatch" >"$log" 2>&1
    echo "$v seed $seed $dispatch exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$G"
    grep -E "^worst| named " "$log" | cut -c1-130 | tee -a "$G"
  done
}

# sweep_graphs V LIST...: .device/bench_shapes-V --sweep --graphs (every choice of the header
# and cuBLAS timed as CUDA graphs) over each problem list LIST (a path), 60 s each, into
# $OUT/sweep-graphs-NAME.csv.gz (NAME: the list's file name without .txt); counts and the
# last line into the summary.
sweep_graphs() {
  local v=$1 list name csv
  shift
  for list in "$@"; do
    name=$(basename "$list" .txt) csv=$OUT/sweep-graphs-$name.csv
    timeout 60 ".device/bench_shapes-$v" --sweep --graphs --sweep-seconds 40 --problems "$list" >"$csv" 2>&1
    echo "sweep --graphs $name exit $? after $(($(date +%s) - T0)) s: $(grep -c '^choice,[0-9]' "$csv") choices, $(grep -c ',nan,' "$csv") untimed; $(tail -1 "$csv")" | tee -a "$G"
    gzip -9 "$csv"
  done
}


# graph_round VERSION NAME ARGS...: .device/bench_shapes-VERSION as graphs with the predicted
# dispatch and ARGS (a problem list, or a seed and count), stopped after 60 s, its table at
# $R/VERSION-NAME.txt and its means into the summary. The paired calls alternate versions
# round by round with it.
graph_round() {
  local v=$1 name=$2
  shift 2
  local log=$R/$v-$name.txt
  timeout 60 ".device/bench_shapes-$v" --graphs --dispatch predicted "$@" >"$log" 2>&1
  echo "$v $name exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$G"
}

# paired_rounds FIRST SECOND LIST [TAG]: the two versions alternating (FIRST SECOND, SECOND
# FIRST, FIRST SECOND) on LIST (a problem list), the random set of seed 1 and that of seed 2,
# through graph_round; rounds named NAME-abTAG, NAME-seed1TAG and NAME-seed2TAG.
paired_rounds() {
  local a=$1 b=$2 list=$3 tag=${4:-}
  graph_round "$a" "ab$tag" --problems "$list"
  graph_round "$b" "ab$tag" --problems "$list"
  graph_round "$b" "seed1$tag" --seed 1 --count 48
  graph_round "$a" "seed1$tag" --seed 1 --count 48
  graph_round "$a" "seed2$tag" --seed 2 --count 48
  graph_round "$b" "seed2$tag" --seed 2 --count 48
}
