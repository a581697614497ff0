#!/usr/bin/env bash
# The shapes benchmark of two versions of the kernels and their run-time selection, paired:
# one tuned database, one header emitted from it by each version's template, the same
# problems run through both programs in alternating rounds on the same GPU. What a change to
# kernel_templates/ is measured with: tunings differ from run to run (a new tuning moves the
# random set's figure by several points), a shared database does not.
#   OUT=/tmp/out BASE=/path/to/base-tree DB=shapes.db tools/bench_shapes_paired.sh
# BASE: a source tree of the version to compare against (tools/pack_for_device.sh --base
# COMMIT writes one into .device/base; its sgemm_tile_rules.h must equal this tree's, which
# the emit checks). DB: a database tuned
# by this version (tools/bench_shapes.sh leaves one in its OUT). ROUNDS (default 2) rounds of
# seeds SEEDS (default "1 2"), COUNT (default 48), BIN (default .device), PROBLEMS (a problem
# list, bench_shapes --problems, in place of the generated sets; one seed is then enough),
# DISPATCH (predicted or measured: each program's sgemm_tune::Dispatch; default what
# SGEMM_TUNE_DISPATCH says, else predicted).
# Both headers are emitted --from-source (nvcc compiles every kernel of both versions): the
# database's machine code was compiled from this version's template, and emit ships none
# for the base's, whose fingerprint differs; NVRTC and nvcc allocate registers differently,
# so mixing the two would compare compilers as well as versions.
# CUDA_ARCHITECTURES (default: the GPU in hand) and BUILD_ONLY=1 (build both versions, run
# nothing) check both builds on a machine without a GPU. REUSE_BUILD=1 runs the programs an
# earlier run of this script built (same DB and versions: another problem set, say).
# Writes $OUT/paired-{base,new}-seed*-round*.txt and prints each set's geometric mean per run.
# Odd rounds run the base first, even rounds the new version.
set -uo pipefail
: "${OUT:?set OUT to the folder for logs}"
: "${BASE:?set BASE to the source tree to compare against}"
: "${DB:?set DB to a database this version tuned}"
OUT=$(realpath -m "$OUT")
# Checked before anything is built or run, so that a GPU machine's time is not spent on a
# base that cannot build (tools/pack_for_device.sh --base COMMIT writes a complete one).
# shellcheck source=tools/paired_base_paths.sh
source "$(dirname "$0")/paired_base_paths.sh"
for need in "${paired_base_paths[@]}"; do
  [[ -e "$BASE/$need" ]] || { echo "BASE=$BASE lacks $need: write it with tools/pack_for_device.sh --base COMMIT"; exit 1; }
done
BASE=$(realpath "$BASE")
DB=$(realpath "$DB")
# The programs' options, paths as the caller meant them (before moving to the root).
options=()
if [[ -n "${PROBLEMS:-}" ]]; then
  [[ -f "$PROBLEMS" ]] || { echo "no problem list at PROBLEMS=$PROBLEMS"; exit 1; }
  options+=(--problems "$(realpath "$PROBLEMS")")
fi
if [[ -n "${DISPATCH:-}" ]]; then
  [[ "$DISPATCH" == predicted || "$DISPATCH" == measured ]] ||
    { echo "DISPATCH=$DISPATCH: predicted or measured"; exit 1; }
  options+=(--dispatch "$DISPATCH")
fi
cd "$(dirname "$0")/.." || exit 1
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
BIN=${BIN:-.device}
ROUNDS=${ROUNDS:-2}
SEEDS=${SEEDS:-1 2}
COUNT=${COUNT:-48}
work=/tmp/bench_shapes_paired
mkdir -p "$OUT" "$work"

# One header and one program per version: VERSION TEMPLATE-DIR SOURCE-TREE
build() {
  local version=$1 templates=$2 tree=$3
  if [[ "${REUSE_BUILD:-0}" == 1 && -x "$work/$version/build/bench_shapes" ]]; then
    echo "reusing $work/$version/build/bench_shapes" >"$OUT/paired-$version-build.log"
    return 0
  fi
  "$BIN/sgemm-tune" emit --db "$DB" --out "$work/$version/sgemm_tuned.h" --template-dir "$templates" --from-source \
    >"$OUT/paired-$version-emit.txt" 2>&1 || { cat "$OUT/paired-$version-emit.txt"; return 1; }
  rm -rf "$work/$version/build"
  { cmake -S "$tree/tools/bench_shapes" -B "$work/$version/build" -G Ninja \
      -DSGEMM_TUNED_HEADER="$work/$version/sgemm_tuned.h" \
      ${CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCHITECTURES"} &&
      cmake --build "$work/$version/build"; } >"$OUT/paired-$version-build.log" 2>&1 ||
    { tail -20 "$OUT/paired-$version-build.log"; return 1; }
}
mkdir -p "$work/base" "$work/new"
# The two builds at once: each is mostly one nvcc compiling every kernel of its header, on
# one core, and they write to folders of their own.
# Builds still running when the script ends (a failure, or a caller's timeout) are stopped.
trap 'kill $(jobs -p) 2>/dev/null' EXIT
build base "$BASE/kernel_templates" "$BASE" &
base_build=$!
build new kernel_templates . &
new_build=$!
wait "$base_build"
base_rc=$?
wait "$new_build"
new_rc=$?
[[ $base_rc -eq 0 ]] || echo "the base version did not build"
[[ $new_rc -eq 0 ]] || echo "this version did not build"
[[ $base_rc -eq 0 && $new_rc -eq 0 ]] || exit 1
echo "base: $BASE ($(cat "$BASE/COMMIT" 2>/dev/null || echo "commit not recorded"))"
# BUILD_ONLY=1: stop here. On a machine without a GPU (CUDA_ARCHITECTURES=90, say), so that a
# base or a change that does not build is found before a GPU machine's time is spent on it.
if [[ "${BUILD_ONLY:-0}" == 1 ]]; then
  echo "both versions built"
  exit 0
fi

rc=0
for round in $(seq 1 "$ROUNDS"); do
  for seed in $SEEDS; do
    # Odd rounds run the base first, even rounds the new version: a drift of clock or
    # temperature within a round then falls on each version first as often as second.
    order="base new"
    [[ $((round % 2)) -eq 0 ]] && order="new base"
    for version in $order; do
      log=$OUT/paired-$version-seed$seed-round$round.txt
      "$work/$version/build/bench_shapes" --seed "$seed" --count "$COUNT" "${options[@]}" >"$log" 2>&1 || rc=1
      echo "round $round seed $seed $version: $(grep '^geometric mean' "$log")"
    done
    # The tuned times of the same problems, version against version: cuBLAS's own time
    # moves between the two programs' runs, which the ratios above carry.
    PYTHONPATH=tools python3 - "$OUT/paired-base-seed$seed-round$round.txt" \
      "$OUT/paired-new-seed$seed-round$round.txt" <<'PY'
import sys
from bench_table import gmean, load
base, new = load(sys.argv[1]), load(sys.argv[2])
for group in ("random", "listed", "suite", "named"):
    r = [base[k].ms / new[k].ms for k in base if k in new and base[k].set == group]
    if r:
        print("  %s: base time / new time, geometric mean %.3f over %d" % (group, gmean(r), len(r)))
PY
  done
done
# Over every round and seed: each set's geometric mean, and each suite and named problem's
# ratio per round, so that "no suite shape slower" can be read off.
PYTHONPATH=tools python3 - "$OUT" <<'PY'
import glob, os, re, sys
from bench_table import gmean, load
ratios = {}
by_kernel = {}
for base_log in sorted(glob.glob(os.path.join(sys.argv[1], "paired-base-seed*-round*.txt"))):
    new_log = base_log.replace("paired-base-", "paired-new-")
    if not os.path.exists(new_log):
        continue
    seed = re.search(r"seed(\d+)", base_log).group(1)
    base, new = load(base_log), load(new_log)
    for k in base:
        if k in new:
            b, n = base[k], new[k]
            key = (b.set, b.what if b.set not in ("random", "listed") else "seed%s#%d" % (seed, k))
            ratios.setdefault(key, []).append(b.ms / n.ms)
            by_kernel.setdefault(n.kernel, []).append(b.ms / n.ms)
            # Problems of a few microseconds move by a few percent from run to run.
            if b.set in ("random", "listed") and b.ms >= 0.05:
                ratios.setdefault((b.set + ", 50 us or more", key[1]), []).append(b.ms / n.ms)
print("all rounds: base time / new time")
for group in ("random", "random, 50 us or more", "listed", "listed, 50 us or more", "suite", "named"):
    r = [x for (g, _), v in ratios.items() if g == group for x in v]
    if r:
        print("  %s: geometric mean %.3f over %d timings" % (group, gmean(r), len(r)))
print("all rounds, by the kernel the new version ran each problem on:")
for kernel, r in sorted(by_kernel.items()):
    print("  %s: geometric mean %.3f over %d timings" % (kernel, gmean(r), len(r)))
for (group, label), v in sorted(ratios.items()):
    if not group.startswith(("random", "listed")):
        print("  %-6s %-22s %s" % (group, label, " ".join("%.3f" % x for x in v)))
PY
exit "$rc"
