#!/usr/bin/env bash
# Call 1 (session 45): the edge kernel of a one-warp tile priced at 1.4 (kOneWarpEdgeSlowdown)
# rather than 1.1 by the selection, against the selection before (f29cacb). Replayed on
# W3a's sweeps of seeds 1 and 2 (../2026-12-06-spread-and-ab-twins/call2): random 74.6% ->
# 78.5% and 71.0% -> 75.1%. Both programs are one tree but for
# kernel_templates/sgemm_tuned_select.h, one database (W3a's), headers compiled from source
# by nvcc on the CPU machine (CUDA_ARCHITECTURES 90), carried in .device/devbin.tgz as
# bench_shapes-head and bench_shapes-sel; their kernels are the same. As graphs, predicted
# dispatch, alternating: bench/experiments/aligned_ab_twins.txt, then the random sets of
# seeds 1 and 2. Every problem is verified by the program (beta 0 over NaN, beta 0.5).
# Then every choice of the new header timed as graphs for seed 1 (bench_shapes --sweep
# --graphs, stopped after 60 s): a sweep whose recorded choices are the new selection's,
# for the replay's test that it chooses as the header did. Between the two, an unaligned C
# stored 4 bytes at a time by the narrow bodies alone (bench/experiments/c_narrow_scalar.patch
# on the tree of bench_shapes-sel: bench_shapes-cnarrow) against sel, alternating on the
# same lists: predicted 1.014-1.028x on the narrow bodies' problems, nothing elsewhere
# (../2026-12-06-spread-and-ab-twins, call 2, where every unsplit unaligned C took 4-byte
# stores). Under $OUT: gpu.txt, rounds.tgz, sweep-sel-seed1.csv.gz. About 4 minutes.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start
R=$OUT/rounds
mkdir -p "$R"
P=bench/experiments/aligned_ab_twins.txt
paired_rounds head sel "$P"
paired_rounds cnarrow sel "$P" 2
tar czf "$OUT/rounds.tgz" -C "$OUT" rounds && rm -rf "$R"
csv=$OUT/sweep-sel-seed1.csv
timeout 80 .device/bench_shapes-sel --sweep --graphs --sweep-seconds 60 --seed 1 --count 48 >"$csv" 2>&1
echo "sweep sel seed 1 exit $? after $(($(date +%s) - T0)) s: $(grep -c '^choice,[0-9]' "$csv") choices, $(grep -c ',nan,' "$csv") untimed; $(tail -1 "$csv")" | tee -a "$G"
gzip "$csv"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
