#!/usr/bin/env bash
# Call 3 (session 42): call 2's second tuning of the space (W2) ran the random set no faster
# than the old space: its staged search probed every structure with stream-K on, and at
# 128x1024x128 and 256^3 every probe took 7.9-8.2 us, so which small tiles went on to the
# second stage was chance. search_spaces/workload.json now probes without stream-K. Tuned
# here twice afresh (W3a, W3b; 170 s at most each; W3a's header built while W3b tunes), to
# see whether both tunings now keep call 1's gain. GS's program (call 1's tuning, built on
# the CPU machine) travels as .device/bench_shapes-GS. Then the random set, predicted
# dispatch, as graphs: GS1 W3a1 W3b1 W3b2 W3a2 GS2. Carry [".device"]: devbin.tgz (sgemm-tune,
# sgemm_tune_gpu_tests, bench_shapes-GS). Under $OUT: gpu.txt, tune-W3a.db.gz,
# tune-W3b.db.gz, logs.tgz, rounds.tgz (the six rounds).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
source bench/results/2026-12-05-h100-small-splits/steps.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L" build-edge-shapes "$OUT/rounds"
rm -f build-edge-shapes/tune-W3a.db* build-edge-shapes/tune-W3b.db*
tune W3a search_spaces/workload.json 170 build-edge-shapes/tune-W3a.db
gzip -9c build-edge-shapes/tune-W3a.db >"$OUT/tune-W3a.db.gz"
build_program W3a &
tune W3b search_spaces/workload.json 170 build-edge-shapes/tune-W3b.db
gzip -9c build-edge-shapes/tune-W3b.db >"$OUT/tune-W3b.db.gz"
build_program W3b
wait
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
# The rounds into $OUT/rounds, tarred after each so that a call cut off keeps what ran.
for round in "GS 1" "W3a 1" "W3b 1" "W3b 2" "W3a 2" "GS 2"; do
  OUT=$OUT/rounds graphs_round $round 45
  tar czf "$OUT/rounds.tgz" -C "$OUT" rounds
done
rm -rf "$OUT/rounds"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
