#!/usr/bin/env bash
# Call 3 (H100): bench_shapes --sweep over sweep_problems.txt with A's and B's headers
# (call 2's programs): every choice the selection could make, verified and timed, so that
# the best any tuned tile reaches at 1000^3 and at the worst random products is known.
# Carry [".device"] as for call 2.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
for v in A B; do
  timeout 200 ".device/bench_shapes-$v" --sweep --sweep-seconds 150 \
    --problems bench/results/2026-12-05-h100-edge-shapes/sweep_problems.txt >"$OUT/sweep-$v.csv" 2>&1
  echo "sweep $v exit $? after $(($(date +%s) - T0)) s: $(grep -c '^choice,[0-9]' "$OUT/sweep-$v.csv") choices" | tee -a "$G"
done
gzip -9 "$OUT"/sweep-*.csv
