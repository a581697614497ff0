#include "tuner/prune/prune.h"

namespace sgemm_tune {
namespace {

PruneVerdict verdict(const char *reason, std::string detail) { return {true, reason, std::move(detail)}; }

// Residency below the settings' floor, or nullopt-like empty verdict.
PruneVerdict check_residency(const Occupancy &occ, const PruneSettings &settings, const char *qualifier) {
  if (occ.blocks_per_sm == 0)
    return verdict(kPruneResidency, std::string("no block fits on an SM") + qualifier + " (limited by " +
                                        std::string(to_string(occ.limiter)) + ")");
  if (occ.blocks_per_sm < settings.min_blocks_per_sm || occ.warps_per_sm < settings.min_warps_per_sm)
    return verdict(kPruneResidency, std::to_string(occ.blocks_per_sm) + " blocks / " +
                                        std::to_string(occ.warps_per_sm) + " warps per SM" + qualifier +
                                        " (limited by " + std::string(to_string(occ.limiter)) + "), need " +
                                        std::to_string(settings.min_blocks_per_sm) + " blocks and " +
                                        std::to_string(settings.min_warps_per_sm) + " warps");
  return {};
}

}  // namespace

KernelResources tile_resources(const SgemmTile &tile, int registers, int static_smem_bytes) {
  return KernelResources{sgemm_tune_kernels::tile_threads(tile), registers, static_smem_bytes,
                         sgemm_tune_kernels::tile_smem_bytes(tile)};
}

PruneVerdict prune_before_compile(const SgemmTile &tile, const PruneSettings &settings, const SmLimits &sm) {
  const int live = sgemm_tune_kernels::tile_live_floats(tile);
  if (live > settings.max_live_floats)
    return verdict(kPruneRegisterEstimate, std::to_string(live) + " floats live per thread, more than the limit of " +
                                               std::to_string(settings.max_live_floats) +
                                               ": would spill out of 255 registers");
  const int smem = sgemm_tune_kernels::tile_smem_bytes(tile);
  if (smem > sm.smem_per_block_optin)
    return verdict(kPruneSharedMemory, std::to_string(smem) + " bytes of shared memory per block, more than " +
                                           sm.arch + "'s " + std::to_string(sm.smem_per_block_optin));
  // With its registers at their lower bound the tile can only do better than this.
  const Occupancy best_case = predict_occupancy(sm, tile_resources(tile, live));
  return check_residency(best_case, settings, " even at the fewest registers it could use");
}

PruneVerdict prune_after_compile(const SgemmTile &, const ResourceUsage &usage, const Occupancy &occupancy,
                                 const PruneSettings &settings) {
  if (usage.spills() && !settings.allow_spills)
    return verdict(kPruneSpills, std::to_string(usage.spill_store_bytes) + " bytes spill stores, " +
                                     std::to_string(usage.spill_load_bytes) + " bytes spill loads at " +
                                     std::to_string(usage.registers) + " registers");
  return check_residency(occupancy, settings, "");
}

}  // namespace sgemm_tune
