#!/usr/bin/env bash
# Call 4 (prepared in session 42, run in session 43: RUN.md):
# bench/experiments/workload_probe_streamk_both.json (the shipped workload space with each
# structure probed with and without stream-K, ranked at each shape by the better probe)
# tuned here as WB, 300 s at most, against W3a (call 3's
# complete tuning of the shipped space). Then the random set, predicted dispatch, as graphs:
# W3a1 WB1 WB2 W3a2. The question: does WB keep W3a's small tiles (random 75.1%, 72.0%) and
# the 64 x 256 tile that ran 3000^3 at 113% (W3a: 102.6%), and in what tuning time.
# Before the call, on the CPU machine: tools/pack_for_device.sh; W3a's program from its
# database (reduced: emit compiles the machine code again),
#   gunzip -c bench/results/2026-12-06-small-threads-graphs/call3/tune-W3a.db.gz >/tmp/tune-W3a.db
#   build/tuner/sgemm-tune emit --db /tmp/tune-W3a.db --out /tmp/hW3a/sgemm_tuned.h
#   cmake -S tools/bench_shapes -B /tmp/bW3a -G Ninja -DSGEMM_TUNED_HEADER=/tmp/hW3a/sgemm_tuned.h \
#     -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build /tmp/bW3a
#   strip -o .device/bench_shapes-W3a /tmp/bW3a/bench_shapes
# and .device/devbin.tgz holding sgemm-tune, sgemm_tune_gpu_tests and bench_shapes-W3a.
# Carry [".device"]. W3a was tuned on an H100: on an H200 its rounds take its entries by
# architecture, so compare there only after tuning the shipped space on it too.
# Under $OUT: gpu.txt, tune-WB.db.gz, logs.tgz, rounds.tgz (the four rounds).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
source bench/results/2026-12-05-h100-small-splits/steps.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L" build-edge-shapes
rm -f build-edge-shapes/tune-WB.db*
tune WB bench/experiments/workload_probe_streamk_both.json 300 build-edge-shapes/tune-WB.db
gzip -9c build-edge-shapes/tune-WB.db >"$OUT/tune-WB.db.gz"
build_program WB
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
for round in "W3a 1" "WB 1" "WB 2" "W3a 2"; do
  graphs_round $round 45
done
(cd "$OUT" && tar czf rounds.tgz ./*-seed*-graphs.txt && rm -f ./*-seed*-graphs.txt)
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
