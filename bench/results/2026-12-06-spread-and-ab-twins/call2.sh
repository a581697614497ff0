#!/usr/bin/env bash
# Call 2 (prepared in session 44, run in session 45): an unaligned C of an unsplit product at beta 0 stored 4 bytes at a
# time (branch exp/c-unsplit-scalar, 5fc1ab6: store_run_realigned kept for a split's atomic
# adds only) against the realigned stores (a704fad). Why: call 1's triplets put an unaligned
# C at 1.27-1.31x the aligned one's time on the unsplit products of small K (7815x1430x73
# col TT, 4190x1988x201 NN), more than session 22 measured for 4-byte stores (1.05x
# unsplit). One database (W3a's), one header from each template compiled from source by
# nvcc on the CPU machine (CUDA_ARCHITECTURES 90), carried in .device/devbin.tgz as
# bench_shapes-spread (call 1's bench_shapes-new) and bench_shapes-cscalar. As graphs,
# predicted dispatch, alternating: bench/experiments/aligned_ab_twins.txt twice, then the
# random sets of seeds 1 and 2. Every problem is verified by the program (beta 0 over NaN,
# beta 0.5). Then every choice of the spread program's header timed as graphs for the random
# sets of seeds 1 and 2 (bench_shapes --sweep --graphs, each stopped after 120 s): W3a's first
# sweeps of whole random sets, for replaying the selection's model on the CPU (the twins'
# sweeps hold seed 1's unaligned problems only). Between the two: the selection's constants
# fitted in session 45 (kPackBytesPerPs 2 -> 3, kTwoWarpsPerSchedulerRate 0.85 -> 0.75;
# bench/experiments/model_scan/fit.py) against the header's (bench_shapes-fit and
# bench_shapes-head: one tree, f29cacb, one database, the kernels alike), alternating on
# the triplets and the random sets of seeds 1 and 2. Under $OUT: gpu.txt, rounds.tgz,
# sweep-seed1.csv.gz, sweep-seed2.csv.gz. About 8 minutes.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start
R=$OUT/rounds
mkdir -p "$R"
P=bench/experiments/aligned_ab_twins.txt
graph_round spread ab1 --problems "$P"
graph_round cscalar ab1 --problems "$P"
graph_round cscalar ab2 --problems "$P"
graph_round spread ab2 --problems "$P"
graph_round spread seed1 --seed 1 --count 48
graph_round cscalar seed1 --seed 1 --count 48
graph_round cscalar seed2 --seed 2 --count 48
graph_round spread seed2 --seed 2 --count 48
graph_round head ab1 --problems "$P"
graph_round fit ab1 --problems "$P"
graph_round head seed1 --seed 1 --count 48
graph_round fit seed1 --seed 1 --count 48
graph_round fit seed2 --seed 2 --count 48
graph_round head seed2 --seed 2 --count 48
tar czf "$OUT/rounds.tgz" -C "$OUT" rounds && rm -rf "$R"
for seed in 1 2; do
  csv=$OUT/sweep-seed$seed.csv
  timeout 160 .device/bench_shapes-spread --sweep --graphs --sweep-seconds 120 --seed $seed --count 48 >"$csv" 2>&1
  echo "sweep seed $seed exit $? after $(($(date +%s) - T0)) s: $(grep -c '^choice,[0-9]' "$csv") choices, $(grep -c ',nan,' "$csv") untimed; $(tail -1 "$csv")" | tee -a "$G"
  gzip "$csv"
done
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
