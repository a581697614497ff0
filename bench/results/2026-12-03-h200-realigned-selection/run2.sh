#!/usr/bin/env bash
# Not yet run (issue 11; written in session 23): the whole path at this commit, as a user
# runs it, by the script of its last run (bench/results/2026-12-02-h200-measured-dispatch/
# run5.sh): search_spaces/workload.json tuned afresh, a header emitted with its machine
# code, bench_shapes built there against it, then the random set of seed 1 with the
# predicted and the measured dispatch in alternating order (P M M P). Logs and the database
# to $OUT; then the named products' ratios of each run.
# Carry [".device"] (tools/pack_for_device.sh; the binaries may be gzipped).
set -u
cd "$(dirname "$0")/../../.."
for f in sgemm-tune sgemm_tune_gpu_tests; do
  [[ -f .device/$f.gz ]] && gunzip -f .device/$f.gz && chmod +x .device/$f
done
OUT=$OUT bash bench/results/2026-12-02-h200-measured-dispatch/run5.sh
for f in "$OUT"/*-round*.txt; do
  echo "$(basename "$f"): $(awk '$2=="named" {printf "%sx%sx%s %s  ", $5, $6, $7, $14}' "$f")"
done
