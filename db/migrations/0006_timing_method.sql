-- sgemm-tune database, schema version 6: a run records how it timed its candidates
-- (timing.method of its space): 'stream', back-to-back launches from the host, the only
-- way before version 6; or 'graphs', rounds replayed as CUDA graphs, the GPU's time alone.
-- The method is part of the fingerprint (where it is 'graphs'), so that results taken the
-- two ways are never ranked together.

ALTER TABLE runs ADD COLUMN timing_method TEXT NOT NULL DEFAULT 'stream' CHECK (timing_method IN ('stream', 'graphs'));
