#!/usr/bin/env bash
# analyse.sh DB: call 1's database read per shape, fastest first: the header's four tiles
# (e4 and e11, the only ones of 64 threads; e3 and e8, 64 x 128 x 32 of 64 x 32 warps,
# which share their block size with the space's 4-warp tiles) and, of each block size of
# 128 threads, the fastest tile, with registers, resident blocks, time, cuBLAS's time and
# the percent of cuBLAS; then the count of results by status. For DB: gunzip -c
# call1/tune-fourwarp.db.gz.
set -euo pipefail
db=$1
sqlite3 -header -column "$db" "
SELECT m || 'x' || n || 'x' || k AS shape, bm || 'x' || bn || 'x' || bk AS tile, wm || 'x' || wn AS warp,
       wniter, tm || 'x' || tn AS thread, stages AS st, prefetch AS pf, threads, registers AS reg,
       runtime_blocks_per_sm AS blocks, round(time_ms * 1000, 1) AS us, round(cublas_ms * 1000, 1) AS cublas_us,
       round(100 * cublas_ms / time_ms, 1) AS pct
FROM results r
WHERE status = 'ok' AND (threads = 64
  OR (bm = 64 AND bn = 128 AND bk = 32 AND wm = 64 AND wn = 32 AND wniter = 2 AND stages = 2
      AND ((tm = 4 AND tn = 4 AND prefetch = 1) OR (tm = 8 AND tn = 4 AND prefetch = 0)))
  OR time_ms <= (
  SELECT min(q.time_ms) FROM results q
  WHERE q.m = r.m AND q.n = r.n AND q.k = r.k AND q.operands = r.operands AND q.status = 'ok'
    AND q.threads = r.threads AND q.bm = r.bm AND q.bn = r.bn))
ORDER BY shape, time_ms;"
sqlite3 "$db" "SELECT status, count(*) FROM results GROUP BY status;"
