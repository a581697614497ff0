#!/usr/bin/env bash
# Call 4: every GPU test at the session's last code, then plain and BLAS shapes tuned
# together on the small test space, a header emitted from that database (its BLAS entries
# marked, each with its tile's rate at a plain shape), and `best` asked for both kinds.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
OUT=$OUT/tests tools/gpu_session.sh --test-limit 420 --time-limit 120 -- --space tests/data/small.json \
  --shape 1024x1024x1024 --shape 1024x512x256 --shape 1000x1000x1000:NT --shape 1024x1536x512:TT
.device/sgemm-tune emit --db "$OUT/tests/tune.db" --out "$OUT/sgemm_tuned.h" > "$OUT/emit.txt" 2>&1
echo "emit exit $?: $(cat "$OUT/emit.txt")"
grep -E "^    \{\{" "$OUT/sgemm_tuned.h" | cut -c1-150 | tee "$OUT/entries.txt"
for s in 1000x1000x1000:NT 1024x1536x512:TT 2000x2000x2000 3000x1000x500:TN:col; do
  .device/sgemm-tune best --db "$OUT/tests/tune.db" --shape $s
done 2>&1 | tee "$OUT/best.txt"
