// Timing with CUDA events: warm-up launches, then each timed launch between its own pair
// of events, rotating over operand sets; the median is the figure reported.
#pragma once

#include <cstddef>
#include <functional>

#include <cuda_runtime_api.h>

namespace sgemm_tune {

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  int repeats = 0;            // launches actually timed
  bool stopped_early = false;
};

// Stop after `after` launches when their median exceeds `threshold_ms`.
struct EarlyStop {
  int after = 0;  // 0: never
  double threshold_ms = 0;
};

// `launch(set)` enqueues one launch on `stream` using operand set `set`.
Timing time_launches(cudaStream_t stream, int warmup, int repeats, std::size_t sets,
                     const std::function<void(std::size_t set)> &launch, EarlyStop early = {});

}  // namespace sgemm_tune
