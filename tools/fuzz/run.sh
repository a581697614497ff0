#!/usr/bin/env bash
# Builds the fuzz targets with clang (libFuzzer, AddressSanitizer, UndefinedBehaviorSanitizer)
# and runs one on its corpus, which it grows.
#   tools/fuzz/run.sh [SECONDS] [TARGET]
# TARGET: space (search space files and shapes; the default) or import (exports, with the
# checks of sgemm-tune import; code that passes them is compiled with the real NVRTC).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
target=${2:-space}
export PATH=/usr/local/cuda/bin:$PATH
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSGEMM_TUNE_FUZZ=ON \
  -DSGEMM_TUNE_BUILD_TESTS=OFF >/dev/null
cmake --build build-fuzz --target "fuzz_$target"
# The CUDA libraries' own allocations are not ours to report (as in CI's sanitizer run).
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0
case "$target" in
  space)
    mkdir -p tools/fuzz/corpus
    build-fuzz/tools/fuzz/fuzz_space -max_total_time="$seconds" -max_len=4096 -timeout=10 \
      tools/fuzz/corpus search_spaces tests/data ;;
  import)
    mkdir -p tools/fuzz/corpus_import
    build-fuzz/tools/fuzz/fuzz_import -max_total_time="$seconds" -max_len=262144 -timeout=60 -rss_limit_mb=4096 \
      tools/fuzz/corpus_import tools/fuzz/seeds_import ;;
  *) echo "unknown fuzz target '$target' (space or import)" >&2; exit 2 ;;
esac
