// Timing with CUDA events, rotating over operand sets, in one of two ways (TimingMethod):
// back-to-back launches from the host, each between its own pair of events; or rounds of
// one launch per set captured into a CUDA graph and replayed, each replay between its own
// pair of events. Warm-up launches first; the median is the figure reported.
#pragma once

#include <cstddef>
#include <functional>

#include <cuda_runtime_api.h>

#include "tuner/space/settings.h"

namespace sgemm_tune {

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  int repeats = 0;            // launches actually timed
  bool stopped_early = false;
  int samples = 0;            // figures the median is taken over: launches, or graph replays
};

// Stop after `after` launches (graphs: replays) when their median exceeds `threshold_ms`.
struct EarlyStop {
  int after = 0;  // 0: never
  double threshold_ms = 0;
};

// Replays timed with graphs when a round holds `per_round` launches; besides them, one
// untimed replay leads each batch (two at most: before and after the early stop's check).
int graph_samples(int repeats, int per_round);
constexpr int kUntimedGraphReplays = 2;

// `launch(set)` enqueues one launch on `stream` using operand set `set`; it may throw
// (CudaError). With graphs it must be capturable, and `stream` must not be the legacy
// default stream; a capture a throwing launch broke is ended before the error goes on.
Timing time_launches(TimingMethod method, cudaStream_t stream, int warmup, int repeats, std::size_t sets,
                     const std::function<void(std::size_t set)> &launch, EarlyStop early = {});

}  // namespace sgemm_tune
