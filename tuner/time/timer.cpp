#include "tuner/time/timer.h"

#include <algorithm>
#include <vector>

#include "tuner/gpu/cuda_check.h"
#include "tuner/gpu/cuda_handles.h"

namespace sgemm_tune {
namespace {

// Replays a graph round is timed over at least, whatever `repeats` asks: a median of
// fewer is one bad replay away from wrong.
constexpr int kMinGraphSamples = 5;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

Timing summarise(const std::vector<double> &ms, int launches_per_sample, bool stopped_early) {
  Timing out;
  out.stopped_early = stopped_early;
  out.samples = static_cast<int>(ms.size());
  out.repeats = out.samples * launches_per_sample;
  out.min_ms = *std::min_element(ms.begin(), ms.end());
  out.max_ms = *std::max_element(ms.begin(), ms.end());
  out.median_ms = median(ms);
  return out;
}

// Each sample's figure in milliseconds, taken `samples` at a time as `run_until(n)` asks,
// with the early stop checked after `early.after` of them.
template <class RunUntil>
bool run_with_early_stop(int samples, const EarlyStop &early, std::vector<double> &ms, RunUntil run_until) {
  if (early.after > 0 && early.after < samples) {
    run_until(early.after);
    if (median(ms) > early.threshold_ms) return true;
  }
  run_until(samples);
  return false;
}

Timing time_stream(cudaStream_t stream, int repeats, std::size_t sets, int first_set,
                   const std::function<void(std::size_t set)> &launch, EarlyStop early) {
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
      launch(static_cast<std::size_t>(first_set + launched) % sets);
      SGEMM_CUDA_CHECK(cudaEventRecord(events[launched + 1].get(), stream));
    }
    SGEMM_CUDA_CHECK(cudaEventSynchronize(events[end].get()));
    for (int i = static_cast<int>(ms.size()); i < end; ++i) {
      float t = 0;
      SGEMM_CUDA_CHECK(cudaEventElapsedTime(&t, events[i].get(), events[i + 1].get()));
      ms.push_back(t);
    }
  };
  const bool stopped = run_with_early_stop(repeats, early, ms, run_until);
  return summarise(ms, 1, stopped);
}

using CudaGraph = UniqueHandle<cudaGraph_t, GraphDeleter>;
using CudaGraphExec = UniqueHandle<cudaGraphExec_t, GraphExecDeleter>;

// One launch per operand set, in order, captured from `stream` into an executable graph.
// A launch that throws has broken the capture: it is ended (the stream is usable again)
// before the error goes on.
CudaGraphExec capture_round(cudaStream_t stream, std::size_t sets, const std::function<void(std::size_t set)> &launch) {
  SGEMM_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  cudaGraph_t captured = nullptr;
  try {
    for (std::size_t s = 0; s < sets; ++s) launch(s);
  } catch (...) {
    cudaStreamEndCapture(stream, &captured);
    if (captured != nullptr) cudaGraphDestroy(captured);
    cudaGetLastError();  // the capture's invalidation; the launch's own error goes on
    throw;
  }
  SGEMM_CUDA_CHECK(cudaStreamEndCapture(stream, &captured));
  const CudaGraph graph(captured);
  cudaGraphExec_t exec = nullptr;
  SGEMM_CUDA_CHECK(cudaGraphInstantiate(&exec, graph.get(), 0));
  return CudaGraphExec(exec);
}

// A round holds one launch per set, so a replay reads every set once: the same working set
// as back-to-back timing. Each replay has its own two events, so a gap while the host
// launches the next replay falls outside every figure: what remains is the GPU's time.
// Each batch of replays follows an untimed one (the first uploads the graph), so that the
// GPU is busy when a timed replay's start event is enqueued: on an idle GPU that event
// would complete at once, and the host's time to launch the replay would count.
Timing time_graphs(cudaStream_t stream, int repeats, std::size_t sets,
                   const std::function<void(std::size_t set)> &launch, EarlyStop early) {
  const auto round = capture_round(stream, sets, launch);
  const int per_round = static_cast<int>(sets);
  const int samples = graph_samples(repeats, per_round);
  std::vector<CudaEvent> starts, stops;
  for (int i = 0; i < samples; ++i) {
    starts.push_back(CudaEvent::create());
    stops.push_back(CudaEvent::create());
  }
  std::vector<double> ms;
  int replayed = 0;
  const auto run_until = [&](int end) {
    SGEMM_CUDA_CHECK(cudaGraphLaunch(round.get(), stream));  // untimed: keeps the GPU busy
    for (; replayed < end; ++replayed) {
      SGEMM_CUDA_CHECK(cudaEventRecord(starts[replayed].get(), stream));
      SGEMM_CUDA_CHECK(cudaGraphLaunch(round.get(), stream));
      SGEMM_CUDA_CHECK(cudaEventRecord(stops[replayed].get(), stream));
    }
    SGEMM_CUDA_CHECK(cudaEventSynchronize(stops[end - 1].get()));
    for (int i = static_cast<int>(ms.size()); i < end; ++i) {
      float t = 0;
      SGEMM_CUDA_CHECK(cudaEventElapsedTime(&t, starts[i].get(), stops[i].get()));
      ms.push_back(t / per_round);
    }
  };
  const bool stopped = run_with_early_stop(samples, early, ms, run_until);
  return summarise(ms, per_round, stopped);
}

}  // namespace

int graph_samples(int repeats, int per_round) {
  return std::max(kMinGraphSamples, (repeats + per_round - 1) / std::max(per_round, 1));
}

Timing time_launches(TimingMethod method, cudaStream_t stream, int warmup, int repeats, std::size_t sets,
                     const std::function<void(std::size_t set)> &launch, EarlyStop early) {
  for (int i = 0; i < warmup; ++i) launch(static_cast<std::size_t>(i) % sets);
  if (method == TimingMethod::graphs) return time_graphs(stream, repeats, sets, launch, early);
  return time_stream(stream, repeats, sets, warmup, launch, early);
}

}  // namespace sgemm_tune
