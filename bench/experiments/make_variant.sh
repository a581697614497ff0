#!/usr/bin/env bash
# Builds a template variant for `sgemm-tune --template-dir`: the kernel template as it was
# at commit BASE with bench/experiments/NAME.patch applied, written to .device/variants/NAME
# (ignored by git, carried to the GPU machine with .device).
#   bench/experiments/make_variant.sh NAME BASE
set -euo pipefail
cd "$(dirname "$0")/../.."
name=$1 base=$2
dir=.device/variants/$name
rm -rf "$dir" && mkdir -p "$dir"
for f in sgemm_double_buffered.cuh sgemm_tile_rules.h; do git show "$base:kernel_templates/$f" >"$dir/$f"; done
patch --quiet -p1 -d "$dir" <"bench/experiments/$name.patch"
echo "$dir"
