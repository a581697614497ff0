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
# its own database under OUT, and print each ranked table.
compare_templates() {
  local space=$1 rows=$2 variant dir
  shift 2
  for variant in "$@"; do
    dir=kernel_templates
    [ "$variant" = current ] || dir=.device/variants/$variant
    echo "== $(basename "$space" .json), template: $variant"
    timeout 150 "$TUNE" --space "$space" --template-dir "$dir" --db "$OUT/top-$variant.db" --top "$rows" \
      2>"$OUT/top-$variant.log" | tail -$((rows + 2))
  done
}
