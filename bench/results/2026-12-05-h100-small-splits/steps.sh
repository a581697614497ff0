# The steps this folder's calls share, sourced after ../2026-12-05-h200-edge-shapes/common.sh
# once call_start has set T0 and G. Each writes its output under $OUT and its summary into G.

# small_products_waves SECONDS: the GPU's and a kernel's clusters at once, and the splits
# either side of them (whole, as clusters or "refused" where the GPU would not launch them,
# after the scale pass).
small_products_waves() {
  timeout "$1" .device/small_products waves >"$OUT/waves.txt" 2>&1
  echo "small_products waves exit $? after $(($(date +%s) - T0)) s: $(grep -m1 '^clusters at once' "$OUT/waves.txt")" | tee -a "$G"
  grep -E " (clusters|scale|refused) " "$OUT/waves.txt" | awk '{print $1, $2, $3, $4, $6, $8}' | tee -a "$G"
}

# small_products_split SECONDS: tiles of 32, 16 and 8 outputs a thread, K split 1-8 ways.
small_products_split() {
  timeout "$1" .device/small_products split >"$OUT/split.txt" 2>&1
  echo "small_products split exit $? after $(($(date +%s) - T0)) s" | tee -a "$G"
}

# small_products_pdl SECONDS: programmatic dependent launch, its beta-1 check beside the
# no-wait control.
small_products_pdl() {
  timeout "$1" .device/small_products pdl >"$OUT/pdl.txt" 2>&1
  echo "small_products pdl exit $? after $(($(date +%s) - T0)) s: $(tail -1 "$OUT/pdl.txt")" | tee -a "$G"
  grep -E "no-wait|DIFFERS" "$OUT/pdl.txt" | tee -a "$G"
}

# tune_small_threads W_SECONDS S_SECONDS: the programs W and S at .device/bench_shapes-W and
# -S. W is search_spaces/workload.json: on an H100 session 37's tuning (bench_shapes-A),
# elsewhere tuned here for W_SECONDS; S is bench/experiments/workload_small_threads.json,
# tuned for S_SECONDS. Each header is built on this machine (common.sh's build_program),
# W's while S tunes. L (the log folder) is the caller's.
tune_small_threads() {
  mkdir -p build-edge-shapes
  if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q "H100 80GB HBM3"; then
    cp .device/bench_shapes-A .device/bench_shapes-W
  else
    tune W search_spaces/workload.json "$1" build-edge-shapes/tune-W.db
    gzip -9c build-edge-shapes/tune-W.db >"$OUT/tune-W.db.gz"
    build_program W &
  fi
  tune S bench/experiments/workload_small_threads.json "$2" build-edge-shapes/tune-S.db
  gzip -9c build-edge-shapes/tune-S.db >"$OUT/tune-S.db.gz"
  build_program S
  wait
}

# graphs_round V SEED SECONDS: the random set of SEED through .device/bench_shapes-V, the
# predicted dispatch, timed as graphs (GPU time), into $OUT/V-seedSEED-graphs.txt (straight
# under $OUT, so that a call cut off later keeps it).
graphs_round() {
  local log=$OUT/$1-seed$2-graphs.txt
  timeout "$3" ".device/bench_shapes-$1" --seed "$2" --count 48 --dispatch predicted --graphs >"$log" 2>&1
  echo "$1 seed $2 graphs exit $? after $(($(date +%s) - T0)) s: $(grep '^geometric mean' "$log" | tr '\n' ' ')" | tee -a "$G"
  grep -E "^worst| named " "$log" | cut -c1-140 | tee -a "$G"
}
