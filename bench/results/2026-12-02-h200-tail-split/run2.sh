#!/usr/bin/env bash
# GPU call 2: call 1's commands (run1.sh) again after the fix: the tail split of a STREAMK = 0
# tile asked the run-time for its resident blocks through tile_persistent_blocks, which
# answers 0 for a data-parallel tile (cudaErrorInvalidValue). Logs to $OUT.
exec bash "$(dirname "$0")/run1.sh"
