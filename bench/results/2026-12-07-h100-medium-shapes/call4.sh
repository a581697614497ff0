#!/usr/bin/env bash
# Call 4 (session 48): the sweep of D's header (call 3's database, emitted --from-source on
# the CPU machine with this tree's templates and built there by nvcc): every choice the
# header offers for random seed 1's problems, and cuBLAS, timed as graphs, for the replay
# (build/tools/replay_sweep) to price the kernel of any operands per tile, which call 3 found
# mispredicted. Carry [".device"] with devbin.tgz holding bench_shapes-D. Under $OUT:
# gpu.txt, sweep-D-seed1.csv.gz. Under a minute.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start
csv=$OUT/sweep-D-seed1.csv
timeout "${SWEEP_TIMEOUT:-50}" .device/bench_shapes-D --sweep --graphs --sweep-seconds "${SWEEP_SECONDS:-38}" --seed 1 --count 48 >"$csv" 2>&1
echo "sweep D seed 1 exit $? after $(($(date +%s) - T0)) s: $(grep -c '^choice,[0-9]' "$csv") choices, $(grep -c ',nan,' "$csv") untimed; $(tail -1 "$csv")" | tee -a "$G"
gzip "$csv"
