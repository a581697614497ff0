// Device buffers for timing and verifying one problem shape. Timing rotates over enough
// operand sets that their total exceeds the L2 cache, so each launch reads DRAM as it
// would in a real program rather than the cache the previous launch warmed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tuner/gpu/cuda_handles.h"
#include "tuner/time/gemm_launch.h"

namespace sgemm_tune {

class ShapeWorkspace {
 public:
  // Fills every operand with random data. Throws UserError when the GPU lacks memory.
  ShapeWorkspace(const Shape &shape, std::size_t min_working_set_bytes, std::uint64_t seed, cudaStream_t stream);

  const Shape &shape() const { return shape_; }
  std::size_t sets() const { return a_.size(); }
  GemmArgs args(std::size_t set, float alpha, float beta) const;

  // Verification's extra buffers: the cuBLAS result, C's value before a beta != 0 call,
  // and reduction scratch.
  float *reference() const { return reference_.data(); }
  float *c_before() const { return c_before_.data(); }
  void *scratch() const { return scratch_.get(); }
  // Bytes a workspace for `shape` would allocate.
  static std::size_t bytes_needed(const Shape &shape, std::size_t min_working_set_bytes);
  // Operand sets it would hold: enough for the working set, 64 at most.
  static std::size_t set_count(const Shape &shape, std::size_t min_working_set_bytes);

 private:

  Shape shape_;
  std::vector<DeviceFloats> a_, b_, c_;
  DeviceFloats reference_, c_before_, scratch_;
};

}  // namespace sgemm_tune
