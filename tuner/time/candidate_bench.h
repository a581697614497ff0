// Where candidates run: in this process, or in a worker process that a faulting or
// hanging candidate can take down without taking the tuning with it. An illegal address
// leaves a CUDA context unusable for the rest of its process (a sticky error), so a tuner
// that runs thousands of never-run kernels isolates them.
//   in_process_bench.cpp  measured here
//   isolated_bench.cpp    measured in a worker process (worker_process.h), spoken to in
//                         the messages of worker_messages.h
//   measure_worker.cpp    the worker's side
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tuner/compile/nvrtc_compiler.h"
#include "tuner/gpu/device_info.h"
#include "tuner/time/bench_session.h"

namespace sgemm_tune {

// One candidate verified and timed at several shapes.
struct CandidateMeasurement {
  std::optional<int> runtime_blocks;  // cudaOccupancyMaxActiveBlocksPerMultiprocessor
  std::vector<Measurement> per_shape;  // in the order asked for
  std::vector<std::string> notices;    // one-line remarks for the progress output
};

class CandidateBench {
 public:
  virtual ~CandidateBench() = default;
  virtual const std::vector<ShapeBaseline> &baselines() const = 0;
  // `best_ms[i]`: the best time so far at shape `shapes[i]` (0: none), for early stopping.
  virtual CandidateMeasurement measure(const CompiledKernel &kernel, const std::vector<std::size_t> &shapes,
                                       const std::vector<double> &best_ms) = 0;
  virtual Timing time_cublas(std::size_t shape) = 0;
};

struct BenchConfig {
  int device = 0;
  std::vector<Shape> shapes;
  TimingSettings timing;
  VerifySettings verify;
  std::uint64_t seed = 0;
};

// In this process: a sticky error ends the run (CudaError is thrown).
std::unique_ptr<CandidateBench> make_in_process_bench(const GpuInfo &gpu, const BenchConfig &config);

// In a worker process started from `worker_binary` (sgemm-tune itself): a candidate that
// faults or outlives its time limit is recorded as launch_failed, the worker is started
// again, and the run goes on.
std::unique_ptr<CandidateBench> make_isolated_bench(const std::string &worker_binary, const BenchConfig &config);

}  // namespace sgemm_tune
