#include "tuner/time/timer.h"

#include <algorithm>
#include <vector>

#include "tuner/gpu/cuda_check.h"
#include "tuner/gpu/cuda_handles.h"

namespace sgemm_tune {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

Timing time_launches(cudaStream_t stream, int warmup, int repeats, std::size_t sets,
                     const std::function<void(std::size_t set)> &launch, EarlyStop early) {
  for (int i = 0; i < warmup; ++i) launch(static_cast<std::size_t>(i) % sets);
  std::vector<CudaEvent> events;
  events.reserve(static_cast<std::size_t>(repeats) + 1);
  for (int i = 0; i <= repeats; ++i) events.push_back(CudaEvent::create());
  std::vector<double> ms;

  // Back-to-back launches share events: the stop of one is the start of the next, so no
  // gap on the GPU between them inflates or hides anything.
  SGEMM_CUDA_CHECK(cudaEventRecord(events[0].get(), stream));
  int launched = 0;
  const auto run_until = [&](int end) {
    for (; launched < end; ++launched) {
      launch(static_cast<std::size_t>(warmup + launched) % sets);
      SGEMM_CUDA_CHECK(cudaEventRecord(events[launched + 1].get(), stream));
    }
    SGEMM_CUDA_CHECK(cudaEventSynchronize(events[end].get()));
    for (int i = static_cast<int>(ms.size()); i < end; ++i) {
      float t = 0;
      SGEMM_CUDA_CHECK(cudaEventElapsedTime(&t, events[i].get(), events[i + 1].get()));
      ms.push_back(t);
    }
  };

  Timing out;
  if (early.after > 0 && early.after < repeats) {
    run_until(early.after);
    if (median(ms) > early.threshold_ms) out.stopped_early = true;
  }
  if (!out.stopped_early) run_until(repeats);
  out.repeats = static_cast<int>(ms.size());
  out.min_ms = *std::min_element(ms.begin(), ms.end());
  out.max_ms = *std::max_element(ms.begin(), ms.end());
  out.median_ms = median(ms);
  return out;
}

}  // namespace sgemm_tune
