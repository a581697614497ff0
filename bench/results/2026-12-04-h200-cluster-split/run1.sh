#!/usr/bin/env bash
# Call 1. Splits of K as clusters (kOperandClusterSplit): first the edge kernel of four
# workload tiles (NVRTC cubins made on the CPU machine by bench/experiments/edge_bodies) on
# small products, each split 2 to 8 ways after the scale pass (p<s>) and as clusters (c<s>),
# in alternating rounds with cuBLAS, every result checked. Then GpuBlas.* and GpuHeader.*
# side by side. Then search_spaces/workload.json tuned afresh and a header with machine code
# emitted, kept (xz) for call 2. Carry [".device"] (devbin.tgz).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source tools/device_env.sh
tar xzf .device/devbin.tgz -C .device
T0=$(date +%s)
{ date -u; echo "tree $(cat .device/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv; } | tee "$OUT/gpu.txt"
TILES="32,64,16,32,64,2,8,4,2,0,1 64,128,16,32,64,2,4,4,3,1,1 64,64,16,32,64,1,4,4,2,0,1 64,128,32,32,128,4,4,4,2,0,1"
EB_SPLITS=2,3,4,6,8 EB_ROUNDS=9 \
EB_SHAPES=1009x116x140,408x2088x84,837x532x144,2624x292x344,162x124x2612,80x236x1004,64x288x2276,192x96x816,256x256x4096,1024x256x256,1000x1000x1000,512x512x512 \
  timeout 200 .device/edge_bodies run .device/cb $TILES >"$OUT/splits.txt" 2>&1
echo "edge_bodies exit $? after $(($(date +%s) - T0)) s; WRONG lines: $(grep -c WRONG "$OUT/splits.txt")" | tee -a "$OUT/gpu.txt"
export SGEMM_TUNE_BINARY=$PWD/.device/sgemm-tune SGEMM_TUNE_SOURCE_DIR=$PWD
mkdir -p "$OUT/tests"
for t in GpuBlas.EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas GpuBlas.ATunedBlasProductRunsOnTheKernelItWasTimedOn \
         GpuHeader.EveryPathOfAnEmittedHeaderMatchesCublas; do
  ( timeout 280 .device/sgemm_tune_gpu_tests --gtest_filter="$t" >"$OUT/tests/$t.log" 2>&1
    echo "$t exit $? after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt" ) &
done
wait
grep -hE "^\[  (PASSED|FAILED) |FAILED  \]" "$OUT"/tests/*.log | tee -a "$OUT/gpu.txt"
grep -h "WRONG" "$OUT"/tests/*.log | head -20 | cut -c1-220 | tee -a "$OUT/gpu.txt"
T1=$(date +%s)
mkdir -p "$OUT/tune"
timeout -s INT 150 .device/sgemm-tune --space search_spaces/workload.json --db "$OUT/tune/shapes.db" --top 3 \
  >"$OUT/tune/tune.txt" 2>"$OUT/tune/tune.log"
python3 -c "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(TRUNCATE)')" "$OUT/tune/shapes.db"
echo "tune exit $? after $(($(date +%s) - T1)) s" | tee -a "$OUT/gpu.txt"
.device/sgemm-tune emit --db "$OUT/tune/shapes.db" --out "$OUT/tune/sgemm_tuned.h" >"$OUT/tune/emit.log" 2>&1
echo "emit exit $?: $(tail -1 "$OUT/tune/emit.log")" | tee -a "$OUT/gpu.txt"
xz -T8 -9 "$OUT/tune/sgemm_tuned.h"; gzip "$OUT/tune/shapes.db"
tail -25 "$OUT/tune/tune.txt" | cut -c1-160 >>"$OUT/gpu.txt"
python3 - "$OUT/splits.txt" <<'PY' | tee -a "$OUT/gpu.txt"
import sys, math, collections
rows = [l.split() for l in open(sys.argv[1]) if not l.startswith("tile") and len(l.split()) >= 12 and "x" in l.split()[0]]
ms = collections.defaultdict(dict)
for r in rows:
    tile, shape, form, t = " ".join(r[:7]), r[7], r[8], float(r[9])
    ms[(tile, shape)][form] = t
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
print("scale-pass split time / cluster split time, per split (geometric mean over tiles and shapes):")
for s in ("2", "3", "4", "6", "8"):
    r = [d["p" + s] / d["c" + s] for d in ms.values() if "p" + s in d and "c" + s in d]
    if r: print("  split %s: %.3f over %d, min %.3f max %.3f" % (s, gm(r), len(r), min(r), max(r)))
print("best of everything / best without clusters, per shape (geometric mean over tiles):")
for shape in sorted({k[1] for k in ms}):
    r = []
    for (tile, sh), d in ms.items():
        if sh != shape: continue
        old = min(v for f, v in d.items() if f != "cublas" and not f.startswith("c"))
        new = min(v for f, v in d.items() if f != "cublas")
        r.append(old / new)
    cub = [d["cublas"] for (t, sh), d in ms.items() if sh == shape]
    print("  %-16s %.3f  (cuBLAS %.4f ms)" % (shape, gm(r), min(cub)))
PY
tar czf "$OUT/logs.tgz" -C "$OUT" tests splits.txt && rm -rf "$OUT/tests" "$OUT/splits.txt"
echo "done after $(($(date +%s) - T0)) s" | tee -a "$OUT/gpu.txt"
