#include "tuner/time/measure_worker.h"

#include <csignal>
#include <iostream>
#include <memory>
#include <optional>

#include "tuner/common/errors.h"
#include "tuner/gpu/cuda_check.h"
#include "tuner/time/in_process_bench.h"
#include "tuner/time/worker_messages.h"

namespace sgemm_tune {
namespace {

// Exit statuses: the tuner reads the reply before it sees any of them.
constexpr int kExitFailed = 1;     // could not start (no GPU, too little memory)
constexpr int kExitMalformed = 2;  // a request it could not read: a bug on the tuner's side
constexpr int kExitFatal = 3;      // a candidate broke the CUDA context

void reply(const nlohmann::json &message) { std::cout << wire_line(message) << std::flush; }

class MeasureWorker {
 public:
  // Each returns the status to exit with, or nullopt to read the next request.
  std::optional<int> handle(const InitRequest &request) {
    try {
      const GpuInfo gpu = open_gpu(request.config.device);
      const BenchConfig &c = request.config;
      bench_ = std::make_unique<BenchSession>(gpu, c.shapes, c.timing, c.verify, c.seed);
      InitReply out;
      for (const auto &b : bench_->baselines()) out.baselines.push_back(b.cublas);
      reply(out);
      return std::nullopt;
    } catch (const UserError &e) {
      reply(WorkerFailure{e.what(), true});
    } catch (const std::exception &e) {
      reply(WorkerFailure{e.what(), false});
    }
    return kExitFailed;
  }

  std::optional<int> handle(const MeasureRequest &request) {
    CompiledKernel kernel;
    kernel.tile = request.tile;
    kernel.lowered_name = request.symbol;
    kernel.cubin.resize(request.cubin_size);
    if (!std::cin.read(kernel.cubin.data(), static_cast<std::streamsize>(kernel.cubin.size()))) return 0;
    for (const CompanionCode &c : request.companions) {
      CompanionKernel companion{c.variant, c.symbol, std::string(c.cubin_size, '\0'), c.bodies, {}};
      if (!std::cin.read(companion.cubin.data(), static_cast<std::streamsize>(companion.cubin.size()))) return 0;
      kernel.companions.push_back(std::move(companion));
    }
    if (const auto bad = check_shapes(request.shapes)) {
      reply(WorkerFailure{"malformed measure request: " + *bad, false});
      return kExitMalformed;
    }
    MeasureReply out;
    try {
      out.measurement = measure_candidate(*bench_, kernel, request.shapes, request.best_ms);
    } catch (const CudaError &e) {
      // Sticky: this candidate broke the context. Say so for each shape, then exit.
      out.measurement.per_shape.assign(request.shapes.size(), failed_measurement(e));
      out.fatal = true;
    }
    reply(out);
    return out.fatal ? std::optional<int>(kExitFatal) : std::nullopt;
  }

  std::optional<int> handle(const CublasRequest &request) {
    if (const auto bad = check_shapes({request.shape})) {
      reply(WorkerFailure{"malformed cublas request: " + *bad, false});
      return kExitMalformed;
    }
    reply(CublasReply{bench_->time_cublas(request.shape)});
    return std::nullopt;
  }

 private:
  // What is wrong with the shape indices of a request, if anything.
  std::optional<std::string> check_shapes(const std::vector<std::size_t> &shapes) const {
    if (!bench_) return std::string("no init request came first");
    for (std::size_t s : shapes)
      if (s >= bench_->baselines().size())
        return "shape " + std::to_string(s) + " of " + std::to_string(bench_->baselines().size());
    return std::nullopt;
  }

  std::unique_ptr<BenchSession> bench_;
};

}  // namespace

int run_measure_worker() {
  // Ctrl-C reaches the whole process group: the tuner decides when to stop and then ends
  // the worker itself; dying here first would record the candidate in hand as failed.
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, SIG_IGN);
  std::ios::sync_with_stdio(false);
  MeasureWorker worker;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::optional<int> exit_status;
    try {
      exit_status = std::visit([&](const auto &request) { return worker.handle(request); }, read_request(line));
    } catch (const WireError &e) {
      reply(WorkerFailure{e.what(), false});
      return kExitMalformed;
    }
    if (exit_status) return *exit_status;
  }
  return 0;
}

}  // namespace sgemm_tune
