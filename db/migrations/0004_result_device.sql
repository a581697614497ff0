-- sgemm-tune database, schema version 4: a run may measure on several GPUs of one model
-- (--devices), each candidate on whichever is free. A measured result names the GPU that
-- measured it; its cuBLAS time is that GPU's. Rows measured before version 4, and rows
-- that no GPU measured (pruned, compile_failed), have neither.

ALTER TABLE results ADD COLUMN device INTEGER;  -- the CUDA device number in the tuner's process
ALTER TABLE results ADD COLUMN pci_bus_id TEXT; -- "0000:3b:00.0": the card, whatever CUDA_VISIBLE_DEVICES numbered it
