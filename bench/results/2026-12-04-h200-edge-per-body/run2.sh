#!/usr/bin/env bash
# Call 2. The product with the edge kernel as a kernel per body (9993018), end to end on the
# GPU machine as 2026-12-04-h200-edge-bodies call 5 ran the tree before it:
# search_spaces/workload.json tuned, a header with its machine code emitted, tools/bench_shapes
# built there by nvcc and run on the random set of seed 1 (tools/bench_shapes.sh), then the
# same program on seed 2; predicted dispatch. Carry [".device"] (devbin.tgz).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
T0=$(date +%s)
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
OUT=$OUT/shapes CUDA_ARCHITECTURES=90 SPACE=search_spaces/workload.json SEED=1 timeout 420 tools/bench_shapes.sh 120 >/dev/null 2>&1
echo "bench_shapes.sh exit $? after $(($(date +%s) - T0)) s"
program=$(ls -d /tmp/bench_shapes*/build/bench_shapes 2>/dev/null | head -1)
[[ -x "$program" ]] && timeout 90 "$program" --seed 2 --count 48 --dispatch predicted >"$OUT/shapes/seed2.txt" 2>&1
echo "seed 2 exit $? after $(($(date +%s) - T0)) s"
grep -E "^tuned|wrote|passed|worst|geometric" "$OUT/shapes/shapes.txt" "$OUT/shapes/seed2.txt" | head -12
grep -E "1000 +1000 +1000|3000 +3000 +3000|4096 +4096 +4100" "$OUT/shapes/shapes.txt" | cut -c1-130
gzip "$OUT/shapes/shapes.db"
