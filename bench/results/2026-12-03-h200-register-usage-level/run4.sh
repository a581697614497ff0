#!/usr/bin/env bash
# Call 4. What the header's machine code (NVRTC) costs or gains against nvcc compiling the
# same kernels from source, with the tuning held fixed: call2's 1-workload-L5 database, two
# headers emitted from it,
#   base: emit --from-source (every kernel compiled by nvcc in the program's build)
#   new:  emit --compile-option=--ptxas-options=--register-usage-level=5 (machine code
#         compiled by sgemm-tune's NVRTC at the run's options; call 3's base program)
# each built into tools/bench_shapes here (CUDA arch 90, stripped, xz -9), carried as
# .device/progs/{src5,wl5}/bench_shapes.xz. The random sets of seeds 1 and 2 and the named
# shapes, two rounds, the header's default (predicted) dispatch.
# Carry [".device"] (tools/pack_for_device.sh --base HEAD, without .device/sgemm-tune: the
# working tree and the carried folder must stay under 64 MiB together).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
T0=$(date +%s)
{ date -u; echo "tree $(cat .device/COMMIT), base $(cat .device/base/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
tar xzf bench/results/2026-12-03-h200-register-usage-level/call2/call2.tgz -C /tmp tune/1-workload-L5.db.gz
gunzip -f /tmp/tune/1-workload-L5.db.gz
place() {  # place VERSION-AS PROGRAM
  mkdir -p /tmp/bench_shapes_paired/$1/build
  xz -dc .device/progs/$2/bench_shapes.xz >/tmp/bench_shapes_paired/$1/build/bench_shapes
  chmod +x /tmp/bench_shapes_paired/$1/build/bench_shapes
}
place base src5; place new wl5
OUT=$OUT/nvrtc BASE=.device/base DB=/tmp/tune/1-workload-L5.db ROUNDS=2 SEEDS="1 2" REUSE_BUILD=1 \
  timeout 300 tools/bench_shapes_paired.sh >"$OUT/paired-nvrtc.txt" 2>&1
echo "nvrtc exit $? after $(($(date +%s) - T0)) s"
(cd "$OUT" && tar czf logs.tgz nvrtc && rm -rf nvrtc)
grep -A12 "^all rounds" "$OUT/paired-nvrtc.txt" | head -16
