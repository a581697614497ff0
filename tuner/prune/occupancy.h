// Blocks of a kernel resident on one SM, from its registers, shared memory and threads,
// by the rules of the CUDA occupancy calculator (cuda_occupancy.h) for Volta and later,
// with the default shared-memory carveout. A GPU test checks it against
// cudaOccupancyMaxActiveBlocksPerMultiprocessor for every survivor.
#pragma once

#include <string_view>

#include "tuner/prune/sm_limits.h"

namespace sgemm_tune {

enum class OccupancyLimiter { threads, blocks, registers, shared_memory };
std::string_view to_string(OccupancyLimiter l);

struct Occupancy {
  int blocks_per_sm = 0;
  int warps_per_sm = 0;
  double fraction = 0;  // resident warps over the SM's maximum
  OccupancyLimiter limiter = OccupancyLimiter::threads;
};

struct KernelResources {
  int threads_per_block = 0;
  int registers_per_thread = 0;
  int static_smem_bytes = 0;
  int dynamic_smem_bytes = 0;
};

Occupancy predict_occupancy(const SmLimits &sm, const KernelResources &kernel);

}  // namespace sgemm_tune
