-- sgemm-tune database, schema version 5: a result's shape may be a BLAS product, written
-- with the ops and layout of its call ("1000x1000x1000:NT", "512x512x512:TN:col"), which
-- the tuner times as the generated header runs it. `operands` holds what follows the sizes
-- ("NT", "TN:col"); '' is a plain shape, the only kind before version 5.

ALTER TABLE results ADD COLUMN operands TEXT NOT NULL DEFAULT '';
DROP INDEX results_by_shape;
CREATE INDEX results_by_shape ON results (m, n, k, operands, status);
