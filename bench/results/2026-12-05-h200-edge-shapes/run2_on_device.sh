#!/usr/bin/env bash
# Call 2: the GPU tests of the tuning pipeline, and run2.sh with the headers emitted and
# built on the GPU machine (common.sh, build_program, says why). The databases are those
# call 1 left in build-edge-shapes/ where the machine is still warm, else call 1's
# tune-A.db.gz and tune-B.db.gz carried in .device/. Carry [".device"].
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
mkdir -p build-edge-shapes
for v in A B; do  # a fresh machine: call 1's databases as carried in .device/
  [ -s build-edge-shapes/tune-$v.db ] || gunzip -c .device/tune-$v.db.gz >build-edge-shapes/tune-$v.db 2>/dev/null ||
    { rm -f build-edge-shapes/tune-$v.db; echo "no database of tuning $v: neither call 1's copy here nor .device/tune-$v.db.gz"; exit 3; }
done
source tools/device_env.sh
source bench/results/2026-12-05-h200-edge-shapes/common.sh
tar xzf .device/devbin.tgz -C .device
T0=$(date +%s) G=$OUT/build.txt L=$OUT/build-logs
mkdir -p "$L"
build_program A &
build_program B &
pipeline_gpu_tests 200  # meanwhile; it waits for the builds too
echo "headers built, tests done after $(($(date +%s) - T0)) s" | tee -a "$G"
# run2.sh itself, on the programs just built (it unpacks devbin.tgz again, which holds no
# bench_shapes, so they stay), writing its own gpu.txt and logs.tgz.
tar czf "$OUT/build-logs.tgz" -C "$OUT" build-logs && rm -rf "$L"
bash bench/results/2026-12-05-h200-edge-shapes/run2.sh
