-- sgemm-tune database, schema version 3.
-- A database keeps what cannot be recomputed:
-- * invalid outcomes follow from the kernel's validity rules and the shape alone: they are
--   no longer stored (each run's counts keep how many there were);
-- * a pruned outcome is stored once per fingerprint, not once per run.
-- Runs record where they ran (host, pid), so that a run left 'running' by a process that
-- died is marked 'interrupted' by the next run on that host, and their counts.

CREATE TABLE runs_v3 (
  id                 INTEGER PRIMARY KEY,
  uid                TEXT NOT NULL UNIQUE,
  started_at         TEXT NOT NULL,
  finished_at        TEXT,
  status             TEXT NOT NULL DEFAULT 'running'
                     CHECK (status IN ('running', 'finished', 'failed', 'interrupted')),
  command            TEXT NOT NULL,
  tuner_version      TEXT NOT NULL,
  space_name         TEXT NOT NULL,
  space_source       TEXT NOT NULL,
  space_hash         TEXT NOT NULL,
  gpu_name           TEXT NOT NULL,
  compute_capability TEXT NOT NULL,
  sm_count           INTEGER NOT NULL,
  clock_mhz          INTEGER NOT NULL,
  driver_version     TEXT NOT NULL,
  runtime_version    TEXT NOT NULL,
  nvrtc_version      TEXT NOT NULL,
  compile_options    TEXT NOT NULL,
  template_origin    TEXT NOT NULL,
  template_hash      TEXT NOT NULL,
  fingerprint        TEXT NOT NULL,
  host               TEXT,                      -- where the run's process ran (NULL before version 3)
  pid                INTEGER,
  counts             TEXT                       -- JSON: the run's counts by outcome, when it ended
);
INSERT INTO runs_v3 (id, uid, started_at, finished_at, status, command, tuner_version, space_name, space_source,
                     space_hash, gpu_name, compute_capability, sm_count, clock_mhz, driver_version,
                     runtime_version, nvrtc_version, compile_options, template_origin, template_hash, fingerprint)
  SELECT id, uid, started_at, finished_at, status, command, tuner_version, space_name, space_source,
         space_hash, gpu_name, compute_capability, sm_count, clock_mhz, driver_version,
         runtime_version, nvrtc_version, compile_options, template_origin, template_hash, fingerprint
  FROM runs;
DROP TABLE runs;
ALTER TABLE runs_v3 RENAME TO runs;
CREATE INDEX runs_by_fingerprint ON runs (fingerprint);

DELETE FROM results WHERE status = 'invalid';
DELETE FROM results WHERE status = 'pruned' AND id NOT IN (
  SELECT MIN(x.id) FROM results x JOIN runs r ON r.id = x.run_id WHERE x.status = 'pruned'
  GROUP BY r.fingerprint, x.m, x.n, x.k, x.bm, x.bn, x.bk, x.wm, x.wn, x.wniter, x.tm, x.tn, x.stages,
           x.prefetch, x.stream_k, x.reason);

-- Finding a candidate's earlier outcome at a shape (the pruned rows above, each insert).
CREATE INDEX results_by_tile ON results (m, n, k, bm, bn, bk, wm, wn, wniter, tm, tn, stages, prefetch, stream_k);
