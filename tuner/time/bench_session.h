// The GPU side of a tuning run: one stream, one cuBLAS handle, a workspace per problem
// shape and cuBLAS's time on each, against which every candidate is verified and timed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tuner/common/status.h"
#include "tuner/gpu/cuda_handles.h"
#include "tuner/gpu/device_info.h"
#include "tuner/space/settings.h"
#include "tuner/time/gemm_launch.h"
#include "tuner/time/timer.h"
#include "tuner/time/workspace.h"
#include "tuner/verify/verify.h"

namespace sgemm_tune {

struct ShapeBaseline {
  Shape shape;
  Timing cublas;
  double cublas_tflops = 0;
};

struct Measurement {
  CandidateStatus status = CandidateStatus::ok;  // ok, wrong_result or launch_failed
  std::string reason;
  std::string detail;
  std::optional<Verification> verification;
  std::optional<Timing> timing;
  double tflops = 0;
};

double tflops(const Shape &shape, double ms);

class CudaError;

// A candidate that did not run to a result at one shape: the one way a launch_failed
// measurement is made. `reason` is what the database groups by (a CUDA error's name,
// "load", "timeout", "worker_lost"); `detail` is the message.
Measurement failed_measurement(std::string reason, std::string detail);
Measurement failed_measurement(const CudaError &error);

class BenchSession {
 public:
  // Allocates every shape's workspace up front (failing early, with the shape named,
  // when the GPU's memory is too small) and times cuBLAS on each.
  BenchSession(const GpuInfo &gpu, const std::vector<Shape> &shapes, const TimingSettings &timing,
               const VerifySettings &verify, std::uint64_t seed);

  const std::vector<ShapeBaseline> &baselines() const { return baselines_; }
  // Verifies, then (if correct) times. Throws CudaError only for sticky errors, after
  // which the context is unusable; other launch errors become launch_failed.
  // `best_ms`: the fastest time at this shape so far, for early stopping (0: none yet).
  Measurement measure(const CandidateKernel &kernel, std::size_t shape_index, double best_ms = 0);
  // cuBLAS timed again, e.g. at the end of a run to see whether the clocks drifted.
  Timing time_cublas(std::size_t shape_index);

 private:
  TimingSettings timing_;
  VerifySettings verify_;
  std::uint64_t seed_;
  CudaStream stream_;
  DeviceFloats cublas_workspace_;  // graphs only; declared first, so released after the handle
  CublasHandle cublas_;
  std::vector<std::unique_ptr<ShapeWorkspace>> workspaces_;
  std::vector<ShapeBaseline> baselines_;
};

}  // namespace sgemm_tune
