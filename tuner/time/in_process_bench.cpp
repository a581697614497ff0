#include "tuner/time/in_process_bench.h"

#include "tuner/gpu/cuda_check.h"

namespace sgemm_tune {

CandidateMeasurement measure_candidate(BenchSession &bench, const CompiledKernel &kernel,
                                       const std::vector<std::size_t> &shapes, const std::vector<double> &best_ms) {
  CandidateMeasurement out;
  std::optional<CandidateKernel> loaded;
  try {
    loaded.emplace(kernel);
  } catch (const CudaError &e) {
    if (e.sticky()) throw;
    out.per_shape.assign(shapes.size(), failed_measurement("load", e.what()));
    return out;
  }
  // Only a cross-check of the model: its failure must not cost the candidate.
  try {
    out.runtime_blocks = loaded->runtime_blocks_per_sm();
  } catch (const CudaError &e) {
    if (e.sticky()) throw;
    out.notices.push_back("cannot ask the runtime for the occupancy of " + describe_tile(kernel.tile) + ": " + e.what());
  }
  for (std::size_t i = 0; i < shapes.size(); ++i) out.per_shape.push_back(bench.measure(*loaded, shapes[i], best_ms[i]));
  return out;
}

namespace {

// The device made current in the calling thread; returns it.
int made_current(int device) {
  SGEMM_CUDA_CHECK(cudaSetDevice(device));
  return device;
}

// The CUDA device is current per thread, and a run with several GPUs measures each on a
// thread of its own: every call makes this bench's device current first.
class InProcessBench : public CandidateBench {
 public:
  InProcessBench(const GpuInfo &gpu, const BenchConfig &c)
      : device_(made_current(c.device)), bench_(gpu, c.shapes, c.timing, c.verify, c.seed) {}
  const std::vector<ShapeBaseline> &baselines() const override { return bench_.baselines(); }
  CandidateMeasurement measure(const CompiledKernel &kernel, const std::vector<std::size_t> &shapes,
                               const std::vector<double> &best_ms) override {
    made_current(device_);
    return measure_candidate(bench_, kernel, shapes, best_ms);
  }
  Timing time_cublas(std::size_t shape) override {
    made_current(device_);
    return bench_.time_cublas(shape);
  }

 private:
  int device_;
  BenchSession bench_;
};

}  // namespace

std::unique_ptr<CandidateBench> make_in_process_bench(const GpuInfo &gpu, const BenchConfig &config) {
  return std::make_unique<InProcessBench>(gpu, config);
}

}  // namespace sgemm_tune
