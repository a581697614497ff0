#!/usr/bin/env bash
# GPU session 2 (2026-11-30): the staged search of search_spaces/4096.json with the
# template as it is, the same search with the smem_int_index variant, and Nsight Compute on
# the best configuration. Logs under OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?}"
BIN=${BIN:-.device}

OUT=$OUT tools/gpu_session.sh --time-limit 200 -- --space search_spaces/4096.json

echo "== variant smem_int_index" | tee -a "$OUT/session.txt"
start=$(date +%s)
# The variant was a copy of the template with bench/experiments/smem_int_index.patch applied.
timeout -s INT 200 "$BIN/sgemm-tune" --space search_spaces/4096.json --template-dir bench/experiments/smem_int_index \
  --db /tmp/variant.db --top 10 >"$OUT/variant.txt" 2>"$OUT/variant.log"
echo "variant exit $?, wall $(( $(date +%s) - start )) s" | tee -a "$OUT/session.txt"
sed -n '1,25p' "$OUT/variant.txt" | tee -a "$OUT/session.txt"

# The best configuration of the first search, alone, under the profiler.
python3 - "$OUT/tune.db" >/tmp/best.json <<'PY'
import json, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
row = c.execute("SELECT bm, bn, bk, wm, wn, wniter, tm, tn, stages FROM results WHERE status = 'ok' "
                "ORDER BY time_ms LIMIT 1").fetchone()
names = ["BM", "BN", "BK", "WM", "WN", "WNITER", "TM", "TN", "STAGES"]
print(json.dumps({"name": "best", "parameters": {n: [v] for n, v in zip(names, row)},
                  "shapes": ["4096x4096x4096"], "timing": {"warmup": 1, "repeats": 3}}))
PY
cat /tmp/best.json | tee -a "$OUT/session.txt"
timeout 240 ncu --clock-control none --kernel-name regex:sgemm_double_buffered --launch-skip 2 --launch-count 1 \
  --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
  --section LaunchStats --section Occupancy --section SchedulerStats --section WarpStateStats \
  --section InstructionStats \
  "$BIN/sgemm-tune" --space /tmp/best.json --db /tmp/ncu.db --quiet >"$OUT/ncu.txt" 2>&1
echo "ncu exit $?" | tee -a "$OUT/session.txt"
grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|Issue Slots Busy|Executed Ipc A|Warp Cycles Per Issued|Achieved Occupancy|Registers Per|No Eligible|One or More" "$OUT/ncu.txt" | tee -a "$OUT/session.txt"
