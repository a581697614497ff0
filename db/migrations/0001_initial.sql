-- sgemm-tune database, schema version 1.
-- One row per tuning run with everything that decides whether its timings still hold
-- (the fingerprint), and one row per candidate per problem shape.

CREATE TABLE runs (
  id                 INTEGER PRIMARY KEY,
  uid                TEXT NOT NULL UNIQUE,      -- random; identifies the run across databases (import)
  started_at         TEXT NOT NULL,             -- UTC, ISO 8601
  finished_at        TEXT,
  status             TEXT NOT NULL DEFAULT 'running'
                     CHECK (status IN ('running', 'finished', 'failed')),
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
  -- Hash over template_hash, compile_options, nvrtc_version, driver_version, gpu_name,
  -- compute_capability and tuner_version: equal fingerprints, comparable timings.
  fingerprint        TEXT NOT NULL
);

CREATE TABLE results (
  id                    INTEGER PRIMARY KEY,
  run_id                INTEGER NOT NULL REFERENCES runs (id),
  m                     INTEGER NOT NULL,
  n                     INTEGER NOT NULL,
  k                     INTEGER NOT NULL,
  bm                    INTEGER NOT NULL,
  bn                    INTEGER NOT NULL,
  bk                    INTEGER NOT NULL,
  wm                    INTEGER NOT NULL,
  wn                    INTEGER NOT NULL,
  wniter                INTEGER NOT NULL,
  tm                    INTEGER NOT NULL,
  tn                    INTEGER NOT NULL,
  stages                INTEGER NOT NULL,
  status                TEXT NOT NULL CHECK (status IN ('ok', 'invalid', 'compile_failed', 'pruned',
                                                        'launch_failed', 'wrong_result')),
  reason                TEXT,                   -- a code for pruned/invalid, the error otherwise
  detail                TEXT,
  threads               INTEGER,
  registers             INTEGER,
  spill_bytes           INTEGER,
  smem_bytes            INTEGER,
  blocks_per_sm         INTEGER,                -- the occupancy model's prediction
  runtime_blocks_per_sm INTEGER,                -- cudaOccupancyMaxActiveBlocksPerMultiprocessor
  occupancy             REAL,                   -- resident warps / maximum warps
  time_ms               REAL,                   -- median of the timed launches
  tflops                REAL,
  repeats               INTEGER,                -- launches timed (fewer when stopped early)
  cublas_ms             REAL,                   -- cuBLAS on the same shape in the same run
  cublas_tflops         REAL,
  error_beta0           REAL,                   -- relative Frobenius error against cuBLAS
  error_beta            REAL,
  compile_seconds       REAL,
  measured_at           TEXT NOT NULL
);

-- The compiled code of candidates that could win (not stopped early), so that a generated
-- header can ship exactly the machine code that was timed. Identical fingerprint and tile
-- give identical code, so one row serves every run that shares them.
CREATE TABLE kernels (
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
  lowered_name       TEXT NOT NULL,
  cubin              BLOB NOT NULL,
  PRIMARY KEY (fingerprint, bm, bn, bk, wm, wn, wniter, tm, tn, stages)
);

CREATE INDEX results_by_shape ON results (m, n, k, status);
CREATE INDEX results_by_run ON results (run_id);
