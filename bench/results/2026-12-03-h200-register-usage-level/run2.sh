#!/usr/bin/env bash
# Call 2. ptxas's --register-usage-level 10 against the default 5 on the tuner's own
# spaces: search_spaces/workload.json in the order 5 10 10 5 (its databases come back for
# headers emitted with each level's machine code), search_spaces/suite.json at 5 and 10,
# then search_spaces/4096.json at 10 (staged). paired.py compares each pair candidate by
# candidate, shape by shape.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
T0=$(date +%s)
mkdir -p "$OUT/tune"
cat .device/COMMIT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv | tee "$OUT/gpu.txt"
tune() {  # tune NAME SPACE LEVEL LIMIT
  start=$(date +%s)
  timeout "$4" .device/sgemm-tune --space "$2" --compile-option=--ptxas-options=--register-usage-level=$3 \
    --db "$OUT/tune/$1.db" --top 20 -q > "$OUT/tune/$1.txt" 2>&1
  echo "$1 exit $? $(( $(date +%s) - start )) s (at $(( $(date +%s) - T0 )) s)"
}
pair() {  # pair A B
  python3 bench/experiments/paired.py "$OUT/tune/$1.db" "$OUT/tune/$2.db" "$2" > "$OUT/tune/paired-$1-$2.txt" 2>&1
  echo "paired $1 $2: $(tail -1 "$OUT/tune/paired-$1-$2.txt")"
}
tune 1-workload-L5 search_spaces/workload.json 5 120
tune 2-workload-L10 search_spaces/workload.json 10 120
tune 3-workload-L10 search_spaces/workload.json 10 120
tune 4-workload-L5 search_spaces/workload.json 5 120
pair 1-workload-L5 2-workload-L10
pair 4-workload-L5 3-workload-L10
tune 5-suite-L5 search_spaces/suite.json 5 100
tune 6-suite-L10 search_spaces/suite.json 10 100
pair 5-suite-L5 6-suite-L10
tune 7-4096-L10 search_spaces/4096.json 10 80
grep -m3 -A2 "rank" "$OUT/tune/7-4096-L10.txt"
for f in "$OUT"/tune/*-L*.txt; do echo "== $(basename "$f")"; grep -E "^ +1 |cuBLAS" "$f" | head -14; done > "$OUT/best.txt"
gzip "$OUT"/tune/*.db
cd "$OUT" && tar czf call2.tgz tune && rm -rf tune
