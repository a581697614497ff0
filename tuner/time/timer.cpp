#include "tuner/time/timer.h"

#include <algorithm>
#include <vector>

#include "tuner/gpu/cuda_check.h"
#include "tuner/gpu/cuda_handles.h"

namespace sgemm_tune {

Timing time_launches(cudaStream_t stream, int warmup, int repeats, std::size_t sets,
                     const std::function<void(std::size_t set)> &launch) {
  for (int i = 0; i < warmup; ++i) launch(static_cast<std::size_t>(i) % sets);
  std::vector<CudaEvent> events;
  events.reserve(static_cast<std::size_t>(repeats) + 1);
  for (int i = 0; i <= repeats; ++i) events.push_back(CudaEvent::create());
  // Back-to-back launches share events: the stop of one is the start of the next, so
  // there is no gap on the GPU between them to inflate or hide.
  SGEMM_CUDA_CHECK(cudaEventRecord(events[0].get(), stream));
  for (int i = 0; i < repeats; ++i) {
    launch(static_cast<std::size_t>(warmup + i) % sets);
    SGEMM_CUDA_CHECK(cudaEventRecord(events[i + 1].get(), stream));
  }
  SGEMM_CUDA_CHECK(cudaEventSynchronize(events.back().get()));
  std::vector<double> ms(static_cast<std::size_t>(repeats));
  for (int i = 0; i < repeats; ++i) {
    float t = 0;
    SGEMM_CUDA_CHECK(cudaEventElapsedTime(&t, events[i].get(), events[i + 1].get()));
    ms[i] = t;
  }
  std::sort(ms.begin(), ms.end());
  Timing out;
  out.repeats = repeats;
  out.min_ms = ms.front();
  out.max_ms = ms.back();
  const std::size_t n = ms.size();
  out.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  return out;
}

}  // namespace sgemm_tune
