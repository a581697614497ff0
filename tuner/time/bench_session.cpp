#include "tuner/time/bench_session.h"

#include "tuner/common/errors.h"
#include "tuner/gpu/cuda_check.h"

namespace sgemm_tune {

double tflops(const Shape &shape, double ms) { return ms > 0 ? shape.flops() / (ms * 1e-3) / 1e12 : 0; }

Measurement failed_measurement(std::string reason, std::string detail) {
  Measurement m;
  m.status = CandidateStatus::launch_failed;
  m.reason = std::move(reason);
  m.detail = std::move(detail);
  return m;
}

Measurement failed_measurement(const CudaError &error) { return failed_measurement(cudaGetErrorName(error.code()), error.what()); }

BenchSession::BenchSession(const GpuInfo &gpu, const std::vector<Shape> &shapes, const TimingSettings &timing,
                           const VerifySettings &verify, std::uint64_t seed)
    : timing_(timing), verify_(verify), seed_(seed), stream_(CudaStream::create()),
      cublas_(CublasHandle::create(stream_.get())) {
  if (timing.method == TimingMethod::graphs) {
    // A workspace of cuBLAS's own: without one, cuBLAS under stream capture allocates its
    // workspace from a pool inside the graph (CUDA 12.2 and later), and each of its replays
    // would carry allocation and release nodes that no candidate's has. 32 MiB is what
    // cuBLAS asks for on Hopper, and enough on every earlier GPU.
    constexpr std::size_t kCublasWorkspaceBytes = std::size_t{32} << 20;
    cublas_workspace_ = DeviceFloats::allocate(kCublasWorkspaceBytes / sizeof(float), "cuBLAS's workspace");
    SGEMM_CUBLAS_CHECK(cublasSetWorkspace(cublas_.get(), cublas_workspace_.get(), kCublasWorkspaceBytes));
  }
  const std::size_t working_set = timing.min_working_set_mib > 0
                                      ? static_cast<std::size_t>(timing.min_working_set_mib * 1048576.0)
                                      : 2 * gpu.l2_bytes;
  std::size_t needed = 0;
  for (const Shape &s : shapes) needed += ShapeWorkspace::bytes_needed(s, working_set);
  size_t free_bytes = 0, total = 0;
  SGEMM_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  if (needed > free_bytes) {
    std::string list;
    for (const Shape &s : shapes)
      list += (list.empty() ? "" : ", ") + s.to_string() + " " +
              std::to_string(ShapeWorkspace::bytes_needed(s, working_set) >> 20) + " MiB";
    throw UserError("the problem shapes need " + std::to_string(needed >> 20) + " MiB of GPU memory (" + list +
                    "), but " + gpu.name + " has " + std::to_string(free_bytes >> 20) + " MiB free");
  }
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    workspaces_.push_back(std::make_unique<ShapeWorkspace>(shapes[i], working_set, seed_ + 1000 * i, stream_.get()));
    // cuBLAS gets three times the candidates' repeats: every result is compared with it.
    ShapeBaseline b;
    b.shape = shapes[i];
    ShapeWorkspace &ws = *workspaces_.back();
    b.cublas = time_launches(timing_.method, stream_.get(), timing_.warmup + 2, timing_.repeats * 3, ws.sets(),
                             [&](std::size_t set) { launch_cublas(cublas_.get(), ws.args(set, 1.0f, 0.0f)); });
    b.cublas_tflops = tflops(b.shape, b.cublas.median_ms);
    baselines_.push_back(b);
  }
}

Timing BenchSession::time_cublas(std::size_t shape_index) {
  ShapeWorkspace &ws = *workspaces_.at(shape_index);
  return time_launches(timing_.method, stream_.get(), timing_.warmup, timing_.repeats * 3, ws.sets(),
                       [&](std::size_t set) { launch_cublas(cublas_.get(), ws.args(set, 1.0f, 0.0f)); });
}

Measurement BenchSession::measure(const CandidateKernel &kernel, std::size_t shape_index, double best_ms) {
  ShapeWorkspace &ws = *workspaces_.at(shape_index);
  Measurement m;
  const auto launch = [&](const GemmArgs &args) { kernel.launch(args, stream_.get()); };
  try {
    // A fresh seed per measurement: each candidate is checked on data it has not seen.
    seed_ += 7919;
    m.verification = verify_against_cublas(launch, ws, cublas_.get(), stream_.get(), seed_, verify_);
    if (!m.verification->passed) {
      m.status = CandidateStatus::wrong_result;
      m.reason = "mismatch";
      m.detail = m.verification->detail;
      return m;
    }
    EarlyStop early;
    if (best_ms > 0 && timing_.early_stop_after > 0) {
      early.after = timing_.early_stop_after;
      early.threshold_ms = best_ms * (1.0 + timing_.early_stop_margin);
    }
    m.timing = time_launches(timing_.method, stream_.get(), timing_.warmup, timing_.repeats, ws.sets(),
                             [&](std::size_t set) { launch(ws.args(set, 1.0f, 0.0f)); }, early);
    m.tflops = tflops(ws.shape(), m.timing->median_ms);
  } catch (const CudaError &e) {
    if (e.sticky()) throw;
    cudaGetLastError();
    cudaStreamSynchronize(stream_.get());
    return failed_measurement(e);
  }
  return m;
}

}  // namespace sgemm_tune
