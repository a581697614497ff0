#!/usr/bin/env bash
# Strips the tuner and the GPU tests from build/ into .device/, small enough to carry to a
# GPU machine (the full build folder is not). .device/ is ignored by git.
#   tools/pack_for_device.sh [--base COMMIT]
# --base COMMIT also writes .device/base: that commit's kernels and the programs built on
# them (what tools/bench_shapes_paired.sh compares this tree against, BASE=.device/base),
# and nothing else, so that the carried folder stays small. Without it, a .device/base left
# by an earlier packing is removed, so that no stale base travels unnoticed.
set -euo pipefail
cd "$(dirname "$0")/.."
base=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --base) base=${2:?--base needs a commit}; shift 2 ;;
    --base=*) base=${1#--base=}; shift ;;
    *) echo "unknown argument: $1 (usage: tools/pack_for_device.sh [--base COMMIT])" >&2; exit 2 ;;
  esac
done
if [[ -n "$base" ]]; then
  git rev-parse --verify --quiet "$base^{commit}" >/dev/null || { echo "no commit $base" >&2; exit 1; }
  # The paired benchmark emits both headers from one database, which emit allows only when
  # the validity rules are the same: found out here rather than on the GPU machine.
  git diff --quiet "$base" HEAD -- kernel_templates/sgemm_tile_rules.h ||
    { echo "$base's sgemm_tile_rules.h differs from HEAD's: the paired benchmark cannot compare them" >&2; exit 1; }
fi
mkdir -p .device
strip -o .device/sgemm-tune build/tuner/sgemm-tune
strip -o .device/sgemm_tune_gpu_tests build/tests/sgemm_tune_gpu_tests
# The GPU machine gets no .git: the commit travels in a file, and logs name it.
echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench' 2>/dev/null || echo ' plus uncommitted changes')" >.device/COMMIT
rm -rf .device/base
if [[ -n "$base" ]]; then
  mkdir -p .device/base
  # shellcheck source=tools/paired_base_paths.sh
  source tools/paired_base_paths.sh
  git archive "$base" "${paired_base_paths[@]}" | tar x -C .device/base
  git rev-parse --short "$base^{commit}" >.device/base/COMMIT
fi
ls -la .device
