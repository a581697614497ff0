#include "tuner/prune/occupancy.h"

#include <algorithm>
#include <climits>

namespace sgemm_tune {
namespace {
long long round_up(long long v, long long unit) { return (v + unit - 1) / unit * unit; }
long long divide_up(long long v, long long d) { return (v + d - 1) / d; }
}  // namespace

std::string_view to_string(OccupancyLimiter l) {
  switch (l) {
    case OccupancyLimiter::threads: return "threads";
    case OccupancyLimiter::blocks: return "blocks";
    case OccupancyLimiter::registers: return "registers";
    case OccupancyLimiter::shared_memory: return "shared_memory";
  }
  return "unknown";
}

Occupancy predict_occupancy(const SmLimits &sm, const KernelResources &k) {
  const long long warps_per_block = divide_up(k.threads_per_block, sm.warp_size);

  // Warp slots.
  long long by_threads = 0;
  if (k.threads_per_block > 0 && k.threads_per_block <= sm.max_threads_per_block)
    by_threads = (sm.max_threads_per_sm / sm.warp_size) / warps_per_block;

  // Registers: allocated per warp in units, and per sub-partition; the hardware also
  // checks the block as if its warps were spread over all sub-partitions.
  long long by_regs = LLONG_MAX;
  if (k.registers_per_thread > 0) {
    const long long per_warp = round_up(static_cast<long long>(k.registers_per_thread) * sm.warp_size, sm.reg_alloc_unit);
    const long long per_block = per_warp * warps_per_block;
    const long long assumed_per_block = per_warp * round_up(warps_per_block, sm.sub_partitions);
    if (k.registers_per_thread > sm.max_regs_per_thread || per_block > sm.regs_per_block ||
        assumed_per_block > sm.regs_per_block) {
      by_regs = 0;
    } else {
      const long long warps_per_sub = (sm.regs_per_sm / sm.sub_partitions) / per_warp;
      by_regs = warps_per_sub * sm.sub_partitions / warps_per_block;
    }
  }

  // Shared memory: the driver reserves some per block; allocation is in units.
  long long by_smem = LLONG_MAX;
  const long long smem = round_up(static_cast<long long>(k.static_smem_bytes) + k.dynamic_smem_bytes +
                                      sm.smem_reserved_per_block,
                                  sm.smem_alloc_unit);
  const long long smem_block_limit = static_cast<long long>(sm.smem_per_block_optin) + sm.smem_reserved_per_block;
  if (smem > smem_block_limit)
    by_smem = 0;
  else if (smem > 0)
    by_smem = sm.smem_per_sm / smem;

  Occupancy occ;
  long long blocks = by_threads;
  occ.limiter = OccupancyLimiter::threads;
  if (sm.max_blocks_per_sm < blocks) {
    blocks = sm.max_blocks_per_sm;
    occ.limiter = OccupancyLimiter::blocks;
  }
  if (by_regs < blocks) {
    blocks = by_regs;
    occ.limiter = OccupancyLimiter::registers;
  }
  if (by_smem < blocks) {
    blocks = by_smem;
    occ.limiter = OccupancyLimiter::shared_memory;
  }
  occ.blocks_per_sm = static_cast<int>(std::max(0LL, blocks));
  occ.warps_per_sm = static_cast<int>(occ.blocks_per_sm * warps_per_block);
  occ.fraction = static_cast<double>(occ.warps_per_sm) / (sm.max_threads_per_sm / sm.warp_size);
  return occ;
}

}  // namespace sgemm_tune
