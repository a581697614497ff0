#!/usr/bin/env bash
# Call 1. Why the edge kernel runs whole tiles 7-16% slower than the fast kernel of the same
# tile (bench/NOTES.md, session 11: "the four bodies' code and their registers are the
# suspects"). bench/experiments/edge_bodies times, per tile of call 6's workload tuning, the
# fast kernel (as tuned, and data-parallel), the edge kernel as shipped (four bodies) and
# the edge kernel with only its plain aligned body, unsplit and tail-split, with cuBLAS, in
# alternating rounds; cubins compiled on the CPU machine by NVRTC with the tuner's options
# (.device/eb). Then the SASS of tile 0's kernels, their loops counted (sass_loops.py), and
# ncu of one launch of each at 4096^3.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
cat .device/COMMIT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv | tee "$OUT/gpu.txt"
tar xzf .device/eb.tgz -C .device
TILES=$(cat .device/eb/tiles.txt)
start=$(date +%s)
.device/edge_bodies run .device/eb $TILES > "$OUT/edge_bodies.txt" 2>&1
echo "edge_bodies exit $? $(( $(date +%s) - start )) s"
mkdir -p "$OUT/sass"
for f in fast fast_dp edge4 edge1; do
  cuobjdump -sass .device/eb/tile0_$f.cubin > "$OUT/sass/tile0_$f.sass" 2>&1
done
python3 bench/experiments/sass_loops.py "$OUT"/sass/tile0_{fast_dp,edge4,edge1}.sass > "$OUT/sass/loops.txt" 2>&1
gzip "$OUT"/sass/*.sass
start=$(date +%s)
EB_SHAPES=4096x4096x4096 EB_ROUNDS=1 EB_LAUNCHES=1 timeout 240 ncu --clock-control none \
  --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section InstructionStats \
  --section Occupancy .device/edge_bodies run .device/eb $(echo $TILES | cut -d' ' -f1-2) > "$OUT/ncu.txt" 2>&1
echo "ncu exit $? $(( $(date +%s) - start )) s"
grep -E "^tile|fast|edge" "$OUT/edge_bodies.txt" | awk '{print}' | tail -80
