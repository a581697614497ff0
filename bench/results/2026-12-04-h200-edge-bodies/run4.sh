#!/usr/bin/env bash
# Call 4. The wide bodies with call 2's clamped copies and K's remainder copied first, in
# the prologue, so that the main loop holds no guarded copies (the working tree's
# template; leading dimensions past the int offsets now take the narrow bodies), against
# HEAD's template, paired as in call 2. (Its first run, whose shape list named a shape past the
# harness's 4096 and timed nothing, also ran ncu's stall reasons as in call 3: call4-ncu/.)
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
cat .device/COMMIT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv | tee "$OUT/gpu.txt"
tar xzf .device/eb.tgz -C .device && tar xzf .device/ebv2.tgz -C .device
TILES=$(cat .device/eb/tiles.txt)
start=$(date +%s)
EB_VARIANT_DIR=.device/ebv2 EB_ROUNDS=9 \
EB_SHAPES=1000x1000x1000,1024x1024x1024,1000x1024x1024,1024x1000x1024,1024x1024x1000,1164x1104x440,500x300x700,2000x120x152,256x4000x3840,3000x3000x3000,4096x4096x4100,4096x4096x4096,512x512x512,2048x2048x2048,760x184x3232,4096x3192x108 \
  .device/edge_bodies run .device/eb $TILES > "$OUT/edge_bodies.txt" 2>&1
echo "edge_bodies exit $? $(( $(date +%s) - start )) s"
grep -c WRONG "$OUT/edge_bodies.txt"
python3 bench/results/2026-12-04-h200-edge-bodies/summary.py "$OUT/edge_bodies.txt" | tee "$OUT/summary.txt"
