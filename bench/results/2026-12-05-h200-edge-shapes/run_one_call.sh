#!/usr/bin/env bash
# The whole experiment in one call, for a session whose device time allows one machine
# start only (session 36: refused starts cost 1,546 of its 1,800 s). A is session 33's
# tuning of search_spaces/workload.json (2026-12-05-h200-realigned/call1/tune-main.db.gz,
# template unchanged since, emit calls none of it stale), carried as .device/tune-A.db.gz;
# B (bench/experiments/workload_edges.json) is tuned here, stopped at 225 s (SIGINT keeps
# what was measured; B_SECONDS=... to change it). A's program builds while B tunes (CPU only: nvcc); B's while the GPU
# tests of the tuning pipeline run (nothing timed for a figure meanwhile). Then B's
# self-test and the two headers in alternating order: seeds 1 and 2 predicted, seed 1
# measured (SHORT=1: seed 1 only, for a call with about 550 s of device time). gpu.txt is
# written as it goes, so a call cut off at its limit still tells.
# Carry [".device"]: devbin.tgz (sgemm-tune, sgemm_tune_gpu_tests), tune-A.db.gz.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
T0=$(date +%s)
G=$OUT/gpu.txt
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$G"
L=$OUT/logs; mkdir -p "$L" build-edge-shapes
# A's tuning is an H200's; on another GPU its header would not apply, so A is tuned here
# first (56 s on the H200 in session 33; 80 s at most), B gets 170 s, and one benchmark
# round is left out.
B_SECONDS=${B_SECONDS:-225} ROUNDS=("1 predicted B A" "2 predicted A B" "1 measured B A")
[ "${SHORT:-0}" = 1 ] && B_SECONDS=200 ROUNDS=("1 predicted B A" "1 measured A B")
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  gunzip -c .device/tune-A.db.gz >build-edge-shapes/tune-A.db
else
  timeout -s INT 80 .device/sgemm-tune --space search_spaces/workload.json --db build-edge-shapes/tune-A.db \
    --top 3 >"$L/tune-A.txt" 2>"$L/tune-A.log"
  echo "tune A here (not an H200) exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
  python3 -c "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(TRUNCATE)')" build-edge-shapes/tune-A.db
  gzip -9c build-edge-shapes/tune-A.db >"$OUT/tune-A.db.gz"
  B_SECONDS=170 ROUNDS=("1 predicted B A")
fi
build() {  # VARIANT: emit its header and build bench_shapes on it
  { .device/sgemm-tune emit --db build-edge-shapes/tune-$1.db --out build-edge-shapes/h$1/sgemm_tuned.h &&
    cmake -S tools/bench_shapes -B build-edge-shapes/b$1 -G Ninja \
      -DSGEMM_TUNED_HEADER=$PWD/build-edge-shapes/h$1/sgemm_tuned.h -DCMAKE_CUDA_ARCHITECTURES=90 &&
    cmake --build build-edge-shapes/b$1; } >"$L/build-$1.log" 2>&1
  echo "build $1 exit $? after $(($(date +%s) - T0)) s: $(grep -h '^wrote' "$L/build-$1.log")" | tee -a "$G"
}
mkdir -p build-edge-shapes/hA build-edge-shapes/hB
build A &
timeout -s INT "$B_SECONDS" .device/sgemm-tune --space bench/experiments/workload_edges.json --db build-edge-shapes/tune-B.db \
  --top 3 >"$L/tune-B.txt" 2>"$L/tune-B.log"
echo "tune B exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
grep -E "^stage|elapsed" "$L/tune-B.log" | tail -2 | tee -a "$G"
grep -E "^(candidates|search|compile|wall):" "$L/tune-B.txt" | tee -a "$G"
grep -E "^[0-9]+x[0-9]+x[0-9]+.*cuBLAS" -A2 "$L/tune-B.txt" | grep -vE "rank|^--" | cut -c1-120 | tee -a "$G"
python3 -c "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(TRUNCATE)')" build-edge-shapes/tune-B.db
gzip -9c build-edge-shapes/tune-B.db >"$OUT/tune-B.db.gz"
build B &
# The GPU tests of the tuning pipeline, changed since their last GPU run: a tuning compiles
# only the edge bodies its BLAS shapes run (session 34); the staged search times BLAS
# shapes on its finalists only, taking their probes again (session 35).
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
for shard in 0 1 2; do
  ( GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$shard timeout 170 .device/sgemm_tune_gpu_tests \
      --gtest_filter='GpuPipeline.*' >"$L/GpuPipeline-$shard.log" 2>&1
    echo "GpuPipeline shard $shard exit $? after $(($(date +%s) - T0)) s" | tee -a "$G" ) &
done
( timeout 170 .device/sgemm_tune_gpu_tests --gtest_filter=GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn \
    >"$L/GpuBlas.log" 2>&1
  echo "GpuBlas.ATunedBlasProduct... exit $? after $(($(date +%s) - T0)) s" | tee -a "$G" ) &
wait
grep -hE "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]" "$L"/Gpu*.log | tee -a "$G"
tar czf "$OUT/logs-tune.tgz" -C "$OUT" logs
P=build-edge-shapes
timeout 40 $P/bB/bench_shapes --self-test --seed 1 --count 48 >"$L/self-test-B.txt" 2>&1
echo "self-test B exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
for run in "${ROUNDS[@]}"; do
  set -- $run
  seed=$1 dispatch=$2; shift 2
  for v in "$@"; do
    log=$L/$v-seed$seed-$dispatch.txt
    timeout 40 $P/b$v/bench_shapes --seed "$seed" --count 48 --dispatch "$dispatch" >"$log" 2>&1
    echo "$v seed $seed $dispatch exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$G"
    grep -E "^worst| named " "$log" | cut -c1-130 | tee -a "$G"
  done
done
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L" "$OUT/logs-tune.tgz"
