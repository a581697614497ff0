#!/usr/bin/env bash
# Call 2 (session 46): call 1's paired rounds of head (the old price) and sel (the one-warp
# price at 1.4) on an H200, where call 1 had an H100: the triplets of
# bench/experiments/aligned_ab_twins.txt and the random sets of seeds 1 and 2, alternating,
# as graphs with the predicted dispatch. Same programs: run with carry [".device"] holding
# call 1's devbin.tgz, kind nvidia-h200 (gpu.txt's header names the card that ran it).
# Under $OUT: gpu.txt, rounds.tgz. About 80 s.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start
R=$OUT/rounds
mkdir -p "$R"
paired_rounds head sel bench/experiments/aligned_ab_twins.txt
tar czf "$OUT/rounds.tgz" -C "$OUT" rounds && rm -rf "$R"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$G"
