#!/usr/bin/env bash
# Call 2. The edge kernel's wide bodies copy the stages of a tile that crosses M or N as the
# fast kernel does, A's rows past M clamped to its last row and B's columns past N
# zero-filled by a source size (the working tree's template), against the template of call
# 1 (HEAD): both edge kernels, four bodies and the plain body alone, unsplit and
# tail-split, paired in the same rounds (EB_VARIANT_DIR), on shapes with and without
# remainders in M, N and K.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
cat .device/COMMIT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv | tee "$OUT/gpu.txt"
tar xzf .device/eb.tgz -C .device && tar xzf .device/ebv.tgz -C .device
TILES=$(cat .device/eb/tiles.txt)
start=$(date +%s)
EB_VARIANT_DIR=.device/ebv EB_ROUNDS=9 \
EB_SHAPES=1000x1000x1000,1024x1024x1024,1000x1024x1024,1024x1000x1024,1024x1024x1000,1164x1104x440,500x300x700,2000x120x152,256x4000x3840,3000x3000x3000,4096x4096x4100,4096x4096x4096,512x512x512 \
  .device/edge_bodies run .device/eb $TILES > "$OUT/edge_bodies.txt" 2>&1
echo "edge_bodies exit $? $(( $(date +%s) - start )) s"
grep -c WRONG "$OUT/edge_bodies.txt"
python3 bench/results/2026-12-04-h200-edge-bodies/summary.py "$OUT/edge_bodies.txt" | tee "$OUT/summary.txt"
