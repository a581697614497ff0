# Sourced by the run_session_*.sh scripts: the repository root as working directory, the
# carried binaries, and the comparison of template variants over one space.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
: "${OUT:?set OUT to the folder for logs}"
BIN=${BIN:-.device}
TUNE="$PWD/$BIN/sgemm-tune"
export SGEMM_TUNE_BINARY=$TUNE

# compare_templates SPACE ROWS VARIANT...: tune SPACE once per variant ("current" is the
# built-in template, anything else .device/variants/NAME from make_variant.sh), each into
# its own database top-VARIANT.db under DB_DIR (default OUT), and print each ranked table.
compare_templates() {
  local space=$1 rows=$2 variant dir
  shift 2
  for variant in "$@"; do
    dir=kernel_templates
    [ "$variant" = current ] || dir=.device/variants/$variant
    echo "== $(basename "$space" .json), template: $variant"
    mkdir -p "${DB_DIR:-$OUT}"
    timeout 150 "$TUNE" --space "$space" --template-dir "$dir" --db "${DB_DIR:-$OUT}/top-$variant.db" --top "$rows" \
      2>"${DB_DIR:-$OUT}/top-$variant.log" | tail -$((rows + 2))
  done
}

# stall_reasons SPACE: the stall reasons per issued instruction, issue activity, L2 hit rate
# and DRAM reads of cuBLAS's kernel and of the space's (single) configuration, from ncu.
stall_reasons() {
  local space=$1
  local metrics='regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,smsp__cycles_active.avg,sm__cycles_elapsed.avg.per_second,smsp__issue_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,dram__bytes_read.sum'
  echo "== stall reasons: cuBLAS"
  timeout 120 ncu --clock-control none -k regex:'gemm|xmma|cutlass' -c 1 --metrics "$metrics" \
    "$TUNE" --space "$space" --db /tmp/stalls-cublas.db --quiet --in-process 2>&1 | grep -v "^==PROF==" | grep -v "^\s*$" | tail -40
  echo "== stall reasons: $(basename "$space" .json) (prepare pass, compute pass)"
  timeout 120 ncu --clock-control none -k regex:sgemm_double_buffered -c 2 --metrics "$metrics" \
    "$TUNE" --space "$space" --db /tmp/stalls-tuned.db --quiet --in-process 2>&1 | grep -v "^==PROF==" | grep -v "^\s*$" | tail -45
}

# abba_templates SPACE LABEL: the template variant "before" against the current template,
# in the order before, current, current, before, each pair compared by paired.py.
abba_templates() {
  local space=$1 label=$2 r
  DB_DIR=/tmp/round1 compare_templates "$space" 3 before current
  DB_DIR=/tmp/round2 compare_templates "$space" 3 current before
  for r in round1 round2; do
    python3 bench/experiments/paired.py /tmp/$r/top-before.db /tmp/$r/top-current.db "$label, $r"
  done
}

# abba_binaries OLD_BINARY SPACE LABEL: a tuner built at an earlier commit (its own template
# and tile rules) against the current one, in the order old, new, new, old.
abba_binaries() {
  local old=$1 space=$2 label=$3
  tune_with() {  # tune_with BINARY DB
    SGEMM_TUNE_BINARY=$1 timeout 150 "$1" --space "$space" --db "$2" --top 3 2>"$2.log" | tail -4
  }
  tune_with "$old" /tmp/a1.db; tune_with "$TUNE" /tmp/b1.db
  tune_with "$TUNE" /tmp/b2.db; tune_with "$old" /tmp/a2.db
  python3 bench/experiments/paired.py /tmp/a1.db /tmp/b1.db "$label, round 1"
  python3 bench/experiments/paired.py /tmp/a2.db /tmp/b2.db "$label, round 2"
}
