#!/usr/bin/env bash
# Builds a template variant for `sgemm-tune --template-dir`: the kernel templates as they
# were at commit BASE with bench/experiments/NAME.patch applied, written to
# .device/variants/NAME (ignored by git, carried to the GPU machine with .device).
#   bench/experiments/make_variant.sh NAME BASE
# The patches come in two forms: the early ones name the files inside kernel_templates
# (a/sgemm_double_buffered.cuh), the later ones from the repository's root
# (a/kernel_templates/sgemm_double_buffered.cuh, as `git diff` writes them); both apply.
set -euo pipefail
cd "$(dirname "$0")/../.."
name=$1 base=$2
patch_file=bench/experiments/$name.patch
[[ -f "$patch_file" ]] || { echo "no $patch_file" >&2; exit 1; }
git rev-parse --verify --quiet "$base^{commit}" >/dev/null || { echo "no commit $base" >&2; exit 1; }
dir=.device/variants/$name
rm -rf "$dir" && mkdir -p "$dir"
git archive "$base" kernel_templates | tar x --strip-components=1 -C "$dir"
strip=1
grep -q '^+++ b/kernel_templates/' "$patch_file" && strip=2
patch --quiet --batch -p"$strip" -d "$dir" <"$patch_file"
echo "$dir"
