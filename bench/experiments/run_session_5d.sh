#!/usr/bin/env bash
# GPU session 5, fourth call (2026-11-30): the template with the new FFMA order against a
# serpentine variant over the leading structures, then the staged 4096 search.
# Template variants: .device/variants/NAME, built by bench/experiments/make_variant.sh (README.md there).
source "$(dirname "$0")/session_common.sh"
compare_templates bench/experiments/top_structures.json 6 current ffma_serpentine
OUT=$OUT tools/gpu_session.sh --no-tests --time-limit 150 -- --space search_spaces/4096.json | tail -22
