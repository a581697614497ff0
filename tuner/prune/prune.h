// Residency pruning: candidates that cannot run well are dropped before they reach the
// GPU, and as many as possible before they are even compiled. Every verdict carries a
// stable reason code (recorded in the database and counted in reports) and a sentence.
#pragma once

#include <string>

#include "tuner/compile/ptxas_report.h"
#include "tuner/prune/occupancy.h"
#include "tuner/prune/sm_limits.h"
#include "tuner/space/settings.h"
#include "tuner/space/tile.h"

namespace sgemm_tune {

// Reason codes.
inline constexpr const char *kPruneRegisterEstimate = "register_estimate";
inline constexpr const char *kPruneSharedMemory = "shared_memory";
inline constexpr const char *kPruneSpills = "spills";
inline constexpr const char *kPruneResidency = "residency";
// Decided by a staged search, not by the tile's resources: its structure did not make the
// second stage.
inline constexpr const char *kPruneNotFinalist = "not_finalist";
// Decided by a search with a budget (random, genetic, model): the budget was spent first.
inline constexpr const char *kPruneNotProposed = "not_proposed";

struct PruneVerdict {
  bool pruned = false;
  std::string reason;  // one of the codes above
  std::string detail;
};

// The resources a tile asks for, given its compiled register count.
KernelResources tile_resources(const SgemmTile &tile, int registers, int static_smem_bytes = 0);

// What is known from the tile alone: its shared memory, its threads, and a lower bound
// on its registers (the floats it keeps live). Only valid tiles may be passed.
PruneVerdict prune_before_compile(const SgemmTile &tile, const PruneSettings &settings, const SmLimits &sm);

// What the compiler reported: spills, and residency with the real register count.
PruneVerdict prune_after_compile(const SgemmTile &tile, const ResourceUsage &usage, const Occupancy &occupancy,
                                 const PruneSettings &settings);

}  // namespace sgemm_tune
