// The tuner's side of isolated measurement: a CandidateBench that hands each candidate to
// a measurement worker process (measure_worker.cpp) and starts a new worker when a
// candidate took the last one down.
#include <algorithm>
#include <stdexcept>

#include "tuner/time/candidate_bench.h"
#include "tuner/time/worker_messages.h"
#include "tuner/time/worker_process.h"

namespace sgemm_tune {
namespace {

class IsolatedBench : public CandidateBench {
 public:
  IsolatedBench(std::string binary, BenchConfig config) : binary_(std::move(binary)), config_(std::move(config)) {
    start();
    baselines_ = started_baselines_;
  }
  const std::vector<ShapeBaseline> &baselines() const override { return baselines_; }

  CandidateMeasurement measure(const CompiledKernel &kernel, const std::vector<std::size_t> &shapes,
                               const std::vector<double> &best_ms) override {
    std::vector<std::string> notices;
    if (!worker_ || !worker_->alive()) {
      start();
      notices.push_back("measurement worker started again");
    }
    const MeasureRequest request = measure_request(kernel, shapes, best_ms);
    std::string why;
    std::optional<std::string> line;
    bool sent = worker_->send(wire_line(request)) && worker_->send(kernel.cubin);
    for (const CompanionKernel &c : kernel.companions) sent = sent && worker_->send(c.cubin);
    if (sent) line = worker_->receive(timeout(shapes), why);
    else why = "the worker stopped reading";
    if (!line) {
      // The candidate took the worker down (a fault ends the process) or outlived its time.
      worker_.reset();
      CandidateMeasurement out;
      out.notices = std::move(notices);
      out.per_shape.assign(shapes.size(), failed_measurement(why.rfind("timeout", 0) == 0 ? "timeout" : "worker_lost", why));
      return out;
    }
    MeasureReply reply = read_reply<MeasureReply>(*line);
    if (reply.measurement.per_shape.size() != shapes.size())
      throw WireError("malformed measure reply: " + std::to_string(reply.measurement.per_shape.size()) +
                      " measurements for " + std::to_string(shapes.size()) + " shapes");
    if (reply.fatal) worker_.reset();  // it exits: its context is gone
    notices.insert(notices.end(), reply.measurement.notices.begin(), reply.measurement.notices.end());
    reply.measurement.notices = std::move(notices);
    return std::move(reply.measurement);
  }

  Timing time_cublas(std::size_t shape) override {
    if (!worker_ || !worker_->alive()) start();
    std::string why;
    std::optional<std::string> line;
    if (worker_->send(wire_line(CublasRequest{shape}))) line = worker_->receive(120, why);
    if (!line) throw std::runtime_error("measurement worker: " + why);
    return read_reply<CublasReply>(*line).timing;
  }

 private:
  // Far longer than the candidate can need: its launches at cuBLAS's speed, a hundredfold.
  double timeout(const std::vector<std::size_t> &shapes) const {
    if (config_.timing.timeout_seconds > 0) return config_.timing.timeout_seconds;
    const TimingSettings &t = config_.timing;
    double expected_ms = 0;
    for (std::size_t i : shapes) {
      const Timing &cublas = baselines_[i].cublas;
      // Graphs replay a round of one launch per operand set (cuBLAS's launches per sample).
      const int per_round = cublas.samples > 0 ? std::max(1, cublas.repeats / cublas.samples) : 1;
      const int timed = t.method == TimingMethod::graphs
                            ? per_round * (graph_samples(t.repeats, per_round) + kUntimedGraphReplays)
                            : t.repeats;
      expected_ms += cublas.median_ms * (t.warmup + timed + 4);
    }
    return std::max(30.0, expected_ms * 100 / 1000);
  }

  void start() {
    worker_ = std::make_unique<WorkerProcess>(binary_);
    std::string why;
    std::optional<std::string> line;
    if (worker_->send(wire_line(InitRequest{config_}))) line = worker_->receive(300, why);
    if (!line) throw std::runtime_error("the measurement worker (" + binary_ + " __measure-worker) did not start: " + why);
    const InitReply reply = read_reply<InitReply>(*line);
    if (reply.baselines.size() != config_.shapes.size())
      throw WireError("malformed init reply: " + std::to_string(reply.baselines.size()) + " cuBLAS timings for " +
                      std::to_string(config_.shapes.size()) + " shapes");
    started_baselines_.clear();
    for (std::size_t i = 0; i < config_.shapes.size(); ++i)
      started_baselines_.push_back(ShapeBaseline{config_.shapes[i], reply.baselines[i],
                                                 tflops(config_.shapes[i], reply.baselines[i].median_ms)});
  }

  std::string binary_;
  BenchConfig config_;
  std::unique_ptr<WorkerProcess> worker_;
  std::vector<ShapeBaseline> baselines_, started_baselines_;
};

}  // namespace

std::unique_ptr<CandidateBench> make_isolated_bench(const std::string &worker_binary, const BenchConfig &config) {
  return std::make_unique<IsolatedBench>(worker_binary, config);
}

}  // namespace sgemm_tune
