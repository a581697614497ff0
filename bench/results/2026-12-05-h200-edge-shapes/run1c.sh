#!/usr/bin/env bash
# Call 1c (optional, after call 1, if the session's device time allows about 9 minutes):
# tune C, bench/experiments/workload_edges_ranked.json: B's space with its BLAS shapes in
# the staged search's first stage too, so that the edge body takes part in the ranking;
# every first-stage candidate compiles it. Stops at 480 s (SIGINT keeps what was measured;
# estimated 4-6 minutes on 16 cores). Its database comes back for a third header.
# Carry [".device"]: devbin.tgz (sgemm-tune).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
call_start  # common.sh: unpack, T0, G, the header
L=$OUT/logs
mkdir -p "$L"
tune C bench/experiments/workload_edges_ranked.json 480 "$OUT/tune-C.db"
gzip -9 "$OUT/tune-C.db"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
