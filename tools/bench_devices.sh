#!/usr/bin/env bash
# Several GPUs against one: tunes a space on GPU 0 alone (--devices 0), then on every GPU
# of the machine (--devices all), each into a fresh database under OUT, and prints both
# wall times, their ratio, what each GPU measured, and whether the best tile of each shape
# (sgemm-tune best --json) is the same. Runs binaries built elsewhere, as
# tools/bench_suite.sh does (BIN, default .device/: tools/pack_for_device.sh).
#   OUT=/tmp/out tools/bench_devices.sh [SPACE]      SPACE default search_spaces/suite.json
# LIMIT (seconds, default 3600) stops a tuning that runs away; a run stopped, or failed, or
# a query that fails ends the script with a non-zero status. The table also goes to
# $OUT/devices.txt; each run's report and log are $OUT/devices-{one,all}.{json,log}.
set -uo pipefail
cd "$(dirname "$0")/.."
: "${OUT:?set OUT to the folder for logs}"
BIN=${BIN:-.device}
SPACE=${1:-search_spaces/suite.json}
LIMIT=${LIMIT:-3600}
mkdir -p "$OUT"
summary="$OUT/devices.txt"
{
  echo "binaries built at commit: $(cat "$BIN/COMMIT" 2>/dev/null || echo unknown)"
  echo "space: $SPACE; host: $(hostname), $(nproc) cores"
  nvidia-smi --query-gpu=index,name,pci.bus_id,clocks.max.sm --format=csv,noheader 2>&1
} | tee "$summary"

declare -A wall
for run in one all; do
  devices=$([ "$run" = one ] && echo 0 || echo all)
  db="$OUT/devices-$run.db"
  rm -f "$db" "$db-wal" "$db-shm"  # a database that holds the space already would measure nothing
  start=$(date +%s.%N)
  timeout -s INT "$LIMIT" "$BIN/sgemm-tune" --space "$SPACE" --devices "$devices" --db "$db" --json \
    >"$OUT/devices-$run.json" 2>"$OUT/devices-$run.log"
  rc=$?
  end=$(date +%s.%N)
  wall[$run]=$(python3 -c "print(round($end - $start, 1))")
  echo "--devices $devices: exit $rc, ${wall[$run]} s wall" | tee -a "$summary"
  if [ "$rc" != 0 ]; then
    tail -5 "$OUT/devices-$run.log" | tee -a "$summary"
    exit 1
  fi
done

# The best tile of every shape in each database, as sgemm-tune best answers for this GPU.
shapes=$(python3 -c "import json, sys; print(' '.join(s['shape'] for s in json.load(open(sys.argv[1]))['shapes']))" \
  "$OUT/devices-one.json") || exit 1
for run in one all; do
  : >"$OUT/devices-$run-best.jsonl"
  for shape in $shapes; do
    "$BIN/sgemm-tune" best --json --shape "$shape" --db "$OUT/devices-$run.db" >"$OUT/best.tmp" 2>>"$OUT/devices-$run.log" ||
      { echo "sgemm-tune best --shape $shape --db $OUT/devices-$run.db failed" | tee -a "$summary"; exit 1; }
    python3 -c "import json, sys; print(json.dumps(json.load(open(sys.argv[1]))))" "$OUT/best.tmp" \
      >>"$OUT/devices-$run-best.jsonl" || exit 1
  done
done
rm -f "$OUT/best.tmp"

python3 - "$OUT" "${wall[one]}" "${wall[all]}" <<'EOF' | tee -a "$summary"
import json, sys
out, wall_one, wall_all = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
TILE = ["BM", "BN", "BK", "WM", "WN", "WNITER", "TM", "TN", "STAGES", "PREFETCH", "STREAMK"]

def gpus(run):
    report = json.load(open(f"{out}/devices-{run}.json"))
    return ", ".join(f"{d['device']}: {d['candidates']} ({d['gpu_seconds']:.1f} s)" for d in report["devices"]), \
        len(report["devices"])

def best(run):
    return {b["shape"]: b for b in map(json.loads, open(f"{out}/devices-{run}-best.jsonl"))}

print()
print(f"{'run':<15} {'GPUs':>4} {'wall s':>8}  candidates per GPU (GPU s)")
for run, flag, wall in (("one", "--devices 0", wall_one), ("all", "--devices all", wall_all)):
    per_gpu, count = gpus(run)
    print(f"{flag:<15} {count:>4} {wall:>8.1f}  {per_gpu}")
ratio = wall_all / wall_one if wall_one > 0 else float("nan")
print(f"wall time of all / one: {ratio:.3f} (the target is at most 0.60)")
print()
one, every = best("one"), best("all")
print("best tile per shape, as " + ",".join(TILE) + "; %cuBLAS against the cuBLAS of the GPU that measured it")
print(f"{'shape':<18} {'on GPU 0':<30} {'%cuBLAS':>8}  {'on all':<30} {'%cuBLAS':>8}  same")

def described(entry):
    # A shape the run did not tune answers with the header's prediction: say so.
    tile = ",".join(str(entry["config"][k]) for k in TILE)
    return tile if entry.get("selection") == "exact" else tile + " (" + entry.get("selection", "?") + ")"

same = 0
for shape in one:
    a, b = one[shape], every[shape]
    same += [a["config"][k] for k in TILE] == [b["config"][k] for k in TILE]
    pa, pb = a["config"].get("percent_of_cublas", 0), b["config"].get("percent_of_cublas", 0)
    print(f"{shape:<18} {described(a):<30} {pa:>7.1f}%  {described(b):<30} {pb:>7.1f}%  "
          f"{'yes' if described(a) == described(b) else 'NO'}")
print(f"same best tile at {same} of {len(one)} shapes")
EOF
exit "${PIPESTATUS[0]}"
