-- sgemm-tune database, schema version 2: the kernel template gained two switches,
-- PREFETCH (register double-buffering of fragments) and STREAMK (persistent stream-K
-- decomposition). Rows written before them ran with both off.

ALTER TABLE results ADD COLUMN prefetch INTEGER NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN stream_k INTEGER NOT NULL DEFAULT 0;

-- The kernels table is keyed by the whole tile, so it is rebuilt with the new key.
CREATE TABLE kernels_v2 (
  fingerprint        TEXT NOT NULL,
  bm                 INTEGER NOT NULL,
  bn                 INTEGER NOT NULL,
  bk                 INTEGER NOT NULL,
  wm                 INTEGER NOT NULL,
  wn                 INTEGER NOT NULL,
  wniter             INTEGER NOT NULL,
  tm                 INTEGER NOT NULL,
  tn                 INTEGER NOT NULL,
  stages             INTEGER NOT NULL,
  prefetch           INTEGER NOT NULL DEFAULT 0,
  stream_k           INTEGER NOT NULL DEFAULT 0,
  lowered_name       TEXT NOT NULL,
  cubin              BLOB NOT NULL,
  PRIMARY KEY (fingerprint, bm, bn, bk, wm, wn, wniter, tm, tn, stages, prefetch, stream_k)
);
INSERT INTO kernels_v2 (fingerprint, bm, bn, bk, wm, wn, wniter, tm, tn, stages, lowered_name, cubin)
  SELECT fingerprint, bm, bn, bk, wm, wn, wniter, tm, tn, stages, lowered_name, cubin FROM kernels;
DROP TABLE kernels;
ALTER TABLE kernels_v2 RENAME TO kernels;
