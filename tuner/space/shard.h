// One part of a search split across machines (a Slurm job array: one shard per task).
// Each candidate, with every shape of the run, belongs to exactly one of N shards, decided
// by a hash of its template arguments alone: the same on every machine, whatever else is
// in the space, and even across shards (enumeration order would put all of one STREAMK
// value in one shard). A candidate's shapes stay together so that each kernel is compiled
// on one node only. The shards' databases are merged afterwards (sgemm-tune import).
#pragma once

#include <cstddef>
#include <string>

#include "tuner/space/tile.h"

namespace sgemm_tune {

struct Shard {
  std::size_t index = 0;  // 0 .. count - 1 (Slurm's SLURM_ARRAY_TASK_ID with --array=0-(N-1))
  std::size_t count = 1;
};

// "I/N" with 0 <= I < N <= 65536; throws UserError otherwise.
Shard parse_shard(const std::string &text);

bool in_shard(const SgemmTile &tile, const Shard &shard);

}  // namespace sgemm_tune
