#!/usr/bin/env bash
# Builds the fuzz target with clang (libFuzzer, AddressSanitizer, UndefinedBehaviorSanitizer)
# and runs it on tools/fuzz/corpus, which it grows. Usage: tools/fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
mkdir -p build-fuzz tools/fuzz/corpus
clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I. -Ikernel_templates \
  tools/fuzz/fuzz_space.cpp tuner/space/search_space.cpp tuner/space/constraint.cpp tuner/space/shape.cpp \
  tuner/space/tile.cpp tuner/space/enumerate.cpp tuner/common/hash.cpp -o build-fuzz/fuzz_space
build-fuzz/fuzz_space -max_total_time="$seconds" -max_len=4096 -timeout=10 tools/fuzz/corpus search_spaces tests/data
