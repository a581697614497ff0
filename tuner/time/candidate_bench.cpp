#include "tuner/time/candidate_bench.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "tuner/common/errors.h"
#include "tuner/gpu/cuda_check.h"

namespace sgemm_tune {
namespace {

using nlohmann::json;

// Loads the candidate and measures it at each shape; a sticky error propagates.
CandidateMeasurement measure_here(BenchSession &bench, const CompiledKernel &kernel,
                                  const std::vector<std::size_t> &shapes, const std::vector<double> &best_ms) {
  CandidateMeasurement out;
  std::optional<CandidateKernel> loaded;
  std::string load_error;
  try {
    loaded.emplace(kernel);
  } catch (const CudaError &e) {
    if (e.sticky()) throw;
    load_error = e.what();
  }
  if (loaded) {
    // Only a cross-check of the model: its failure must not cost the candidate.
    try {
      out.runtime_blocks = loaded->runtime_blocks_per_sm();
    } catch (const CudaError &e) {
      if (e.sticky()) throw;
      out.notices.push_back("cannot ask the runtime for the occupancy of " + describe_tile(kernel.tile) + ": " +
                            e.what());
    }
  }
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (!loaded) {
      out.per_shape.push_back(failed_measurement("load", load_error));
      continue;
    }
    out.per_shape.push_back(bench.measure(*loaded, shapes[i], best_ms[i]));
  }
  return out;
}

class InProcessBench : public CandidateBench {
 public:
  InProcessBench(const GpuInfo &gpu, const BenchConfig &c) : bench_(gpu, c.shapes, c.timing, c.verify, c.seed) {}
  const std::vector<ShapeBaseline> &baselines() const override { return bench_.baselines(); }
  CandidateMeasurement measure(const CompiledKernel &kernel, const std::vector<std::size_t> &shapes,
                               const std::vector<double> &best_ms) override {
    return measure_here(bench_, kernel, shapes, best_ms);
  }
  Timing time_cublas(std::size_t shape) override { return bench_.time_cublas(shape); }

 private:
  BenchSession bench_;
};

// ---- the wire format: one JSON object per line; a measure request is followed by the
// cubin's bytes.

json timing_json(const Timing &t) {
  return {{"median", t.median_ms}, {"min", t.min_ms}, {"max", t.max_ms}, {"repeats", t.repeats},
          {"stopped_early", t.stopped_early}};
}
Timing timing_from(const json &j) {
  Timing t;
  t.median_ms = j.at("median");
  t.min_ms = j.at("min");
  t.max_ms = j.at("max");
  t.repeats = j.at("repeats");
  t.stopped_early = j.at("stopped_early");
  return t;
}

json measurement_json(const Measurement &m) {
  json j = {{"status", std::string(to_string(m.status))}, {"reason", m.reason}, {"detail", m.detail},
            {"tflops", m.tflops}};
  if (m.verification)
    j["verification"] = {{"passed", m.verification->passed}, {"e0", m.verification->error_beta0},
                         {"e1", m.verification->error_beta}, {"nonfinite", m.verification->nonfinite},
                         {"detail", m.verification->detail}};
  if (m.timing) j["timing"] = timing_json(*m.timing);
  return j;
}
Measurement measurement_from(const json &j) {
  Measurement m;
  m.status = status_from_string(j.at("status").get<std::string>()).value_or(CandidateStatus::launch_failed);
  m.reason = j.at("reason");
  m.detail = j.at("detail");
  m.tflops = j.at("tflops");
  if (j.contains("verification")) {
    const json &v = j["verification"];
    Verification x;
    x.passed = v.at("passed");
    // JSON has no infinity: a non-finite error travels as null.
    x.error_beta0 = v.at("e0").is_null() ? INFINITY : v.at("e0").get<double>();
    x.error_beta = v.at("e1").is_null() ? INFINITY : v.at("e1").get<double>();
    x.nonfinite = v.at("nonfinite");
    x.detail = v.at("detail");
    m.verification = x;
  }
  if (j.contains("timing")) m.timing = timing_from(j["timing"]);
  return m;
}

json config_json(const BenchConfig &c) {
  json shapes = json::array();
  for (const Shape &s : c.shapes) shapes.push_back({s.M, s.N, s.K});
  return {{"op", "init"},
          {"device", c.device},
          {"shapes", shapes},
          {"timing",
           {{"warmup", c.timing.warmup},
            {"repeats", c.timing.repeats},
            {"min_working_set_mib", c.timing.min_working_set_mib},
            {"early_stop_after", c.timing.early_stop_after},
            {"early_stop_margin", c.timing.early_stop_margin}}},
          {"verify", {{"tolerance", c.verify.tolerance}, {"beta", c.verify.beta}}},
          {"seed", c.seed}};
}
BenchConfig config_from(const json &j) {
  BenchConfig c;
  c.device = j.at("device");
  for (const auto &s : j.at("shapes")) c.shapes.push_back(Shape{s.at(0), s.at(1), s.at(2)});
  const json &t = j.at("timing");
  c.timing.warmup = t.at("warmup");
  c.timing.repeats = t.at("repeats");
  c.timing.min_working_set_mib = t.at("min_working_set_mib");
  c.timing.early_stop_after = t.at("early_stop_after");
  c.timing.early_stop_margin = t.at("early_stop_margin");
  c.verify.tolerance = j.at("verify").at("tolerance");
  c.verify.beta = j.at("verify").at("beta");
  c.seed = j.at("seed");
  return c;
}

void reply(const json &j) {
  std::cout << j.dump() << "\n" << std::flush;
}

// ---- the parent's side of one worker process.

class WorkerProcess {
 public:
  explicit WorkerProcess(const std::string &binary) {
    int to_child[2], from_child[2];
    if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0)
      throw std::runtime_error(std::string("cannot create pipes for the measurement worker: ") + std::strerror(errno));
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error(std::string("cannot start the measurement worker: ") + std::strerror(errno));
    if (pid_ == 0) {
      dup2(to_child[0], 0);
      dup2(from_child[1], 1);
      execl(binary.c_str(), binary.c_str(), "__measure-worker", static_cast<char *>(nullptr));
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    in_ = to_child[1];
    out_ = from_child[0];
  }
  ~WorkerProcess() { stop(); }
  WorkerProcess(const WorkerProcess &) = delete;
  WorkerProcess &operator=(const WorkerProcess &) = delete;

  void stop() {
    if (pid_ <= 0) return;
    close(in_);
    close(out_);
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  bool send(const std::string &bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = write(in_, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      done += static_cast<std::size_t>(n);
    }
    return true;
  }

  // One line of reply, or nullopt with `why` set when the worker died or ran out of time.
  std::optional<std::string> receive(double timeout_s, std::string &why) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (true) {
      const auto nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return line;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        why = "timeout: no answer within " + std::to_string(static_cast<int>(timeout_s)) + " s; worker stopped";
        stop();
        return std::nullopt;
      }
      pollfd p{out_, POLLIN, 0};
      const int r = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) continue;
      char chunk[4096];
      const ssize_t n = read(out_, chunk, sizeof chunk);
      if (n > 0) {
        buffer_.append(chunk, static_cast<std::size_t>(n));
        continue;
      }
      int status = 0;
      waitpid(pid_, &status, 0);
      pid_ = -1;
      close(in_);
      close(out_);
      why = WIFSIGNALED(status) ? "the worker was killed by signal " + std::to_string(WTERMSIG(status))
                                : "the worker exited with status " + std::to_string(WEXITSTATUS(status));
      return std::nullopt;
    }
  }

  bool alive() const { return pid_ > 0; }

 private:
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  std::string buffer_;
};

class IsolatedBench : public CandidateBench {
 public:
  IsolatedBench(std::string binary, BenchConfig config) : binary_(std::move(binary)), config_(std::move(config)) {
    start();
    baselines_ = started_baselines_;
  }
  const std::vector<ShapeBaseline> &baselines() const override { return baselines_; }

  CandidateMeasurement measure(const CompiledKernel &kernel, const std::vector<std::size_t> &shapes,
                               const std::vector<double> &best_ms) override {
    CandidateMeasurement out;
    if (!worker_ || !worker_->alive()) {
      start();
      out.notices.push_back("measurement worker started again");
    }
    json request = {{"op", "measure"},       {"tile", tile_arguments(kernel.tile)}, {"symbol", kernel.lowered_name},
                    {"shapes", shapes},      {"best_ms", best_ms},                  {"cubin_size", kernel.cubin.size()}};
    std::string why;
    std::optional<std::string> line;
    if (worker_->send(request.dump() + "\n") && worker_->send(kernel.cubin)) line = worker_->receive(timeout(shapes), why);
    else why = "the worker stopped reading";
    if (!line) {
      // The candidate took the worker down (a fault ends the process) or outlived its time.
      worker_.reset();
      out.per_shape.assign(shapes.size(), failed_measurement(why.rfind("timeout", 0) == 0 ? "timeout" : "worker_lost", why));
      return out;
    }
    const json reply = json::parse(*line);
    if (reply.contains("runtime_blocks") && !reply["runtime_blocks"].is_null()) out.runtime_blocks = reply["runtime_blocks"];
    for (const auto &n : reply.value("notices", json::array())) out.notices.push_back(n);
    for (const auto &m : reply.at("per_shape")) out.per_shape.push_back(measurement_from(m));
    if (reply.value("fatal", false)) worker_.reset();  // it exits: its context is gone
    return out;
  }

  Timing time_cublas(std::size_t shape) override {
    if (!worker_ || !worker_->alive()) start();
    std::string why;
    std::optional<std::string> line;
    if (worker_->send(json{{"op", "cublas"}, {"shape", shape}}.dump() + "\n")) line = worker_->receive(120, why);
    if (!line) throw std::runtime_error("measurement worker: " + why);
    return timing_from(json::parse(*line).at("timing"));
  }

 private:
  // Far longer than the candidate can need: its launches at cuBLAS's speed, a hundredfold.
  double timeout(const std::vector<std::size_t> &shapes) const {
    if (config_.timing.timeout_seconds > 0) return config_.timing.timeout_seconds;
    double expected_ms = 0;
    for (std::size_t i : shapes)
      expected_ms += baselines_[i].cublas.median_ms * (config_.timing.warmup + config_.timing.repeats + 4);
    return std::max(30.0, expected_ms * 100 / 1000);
  }

  void start() {
    worker_ = std::make_unique<WorkerProcess>(binary_);
    std::string why;
    std::optional<std::string> line;
    if (worker_->send(config_json(config_).dump() + "\n")) line = worker_->receive(300, why);
    if (!line) throw std::runtime_error("the measurement worker (" + binary_ + " __measure-worker) did not start: " + why);
    const json reply = json::parse(*line);
    if (!reply.value("ok", false)) {
      const std::string error = reply.value("error", std::string("unknown error"));
      if (reply.value("user_error", false)) throw UserError(error);
      throw std::runtime_error("measurement worker: " + error);
    }
    started_baselines_.clear();
    for (std::size_t i = 0; i < config_.shapes.size(); ++i) {
      ShapeBaseline b;
      b.shape = config_.shapes[i];
      b.cublas = timing_from(reply.at("baselines").at(i));
      b.cublas_tflops = tflops(b.shape, b.cublas.median_ms);
      started_baselines_.push_back(b);
    }
  }

  std::string binary_;
  BenchConfig config_;
  std::unique_ptr<WorkerProcess> worker_;
  std::vector<ShapeBaseline> baselines_, started_baselines_;
};

}  // namespace

std::unique_ptr<CandidateBench> make_in_process_bench(const GpuInfo &gpu, const BenchConfig &config) {
  return std::make_unique<InProcessBench>(gpu, config);
}

std::unique_ptr<CandidateBench> make_isolated_bench(const std::string &worker_binary, const BenchConfig &config) {
  return std::make_unique<IsolatedBench>(worker_binary, config);
}

int run_measure_worker() {
  // Ctrl-C reaches the whole process group: the tuner decides when to stop and then ends
  // the worker itself; dying here first would record the candidate in hand as failed.
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, SIG_IGN);
  std::ios::sync_with_stdio(false);
  std::unique_ptr<BenchSession> bench;
  std::string line;
  while (std::getline(std::cin, line)) {
    const json request = json::parse(line);
    const std::string op = request.at("op");
    if (op == "init") {
      try {
        const BenchConfig config = config_from(request);
        const GpuInfo gpu = open_gpu(config.device);
        bench = std::make_unique<BenchSession>(gpu, config.shapes, config.timing, config.verify, config.seed);
        json baselines = json::array();
        for (const auto &b : bench->baselines()) baselines.push_back(timing_json(b.cublas));
        reply({{"ok", true}, {"baselines", baselines}});
      } catch (const UserError &e) {
        reply({{"ok", false}, {"error", e.what()}, {"user_error", true}});
        return 1;
      } catch (const std::exception &e) {
        reply({{"ok", false}, {"error", e.what()}});
        return 1;
      }
    } else if (op == "measure") {
      CompiledKernel kernel;
      const std::string args = request.at("tile");
      std::sscanf(args.c_str(), "%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d", &kernel.tile.BM, &kernel.tile.BN, &kernel.tile.BK,
                  &kernel.tile.WM, &kernel.tile.WN, &kernel.tile.WNITER, &kernel.tile.TM, &kernel.tile.TN,
                  &kernel.tile.STAGES, &kernel.tile.PREFETCH, &kernel.tile.STREAMK);
      kernel.lowered_name = request.at("symbol");
      kernel.cubin.resize(request.at("cubin_size").get<std::size_t>());
      std::cin.read(kernel.cubin.data(), static_cast<std::streamsize>(kernel.cubin.size()));
      const std::vector<std::size_t> shapes = request.at("shapes");
      const std::vector<double> best = request.at("best_ms");
      json out;
      bool fatal = false;
      try {
        const CandidateMeasurement m = measure_here(*bench, kernel, shapes, best);
        out["runtime_blocks"] = m.runtime_blocks ? json(*m.runtime_blocks) : json(nullptr);
        out["notices"] = m.notices;
        json per_shape = json::array();
        for (const auto &x : m.per_shape) per_shape.push_back(measurement_json(x));
        out["per_shape"] = per_shape;
      } catch (const CudaError &e) {
        // Sticky: this candidate broke the context. Say so for each shape, then exit.
        fatal = true;
        json per_shape = json::array();
        for (std::size_t i = 0; i < shapes.size(); ++i) per_shape.push_back(measurement_json(failed_measurement(e)));
        out["per_shape"] = per_shape;
      }
      out["fatal"] = fatal;
      reply(out);
      if (fatal) return 3;
    } else if (op == "cublas") {
      reply({{"timing", timing_json(bench->time_cublas(request.at("shape")))}});
    }
  }
  return 0;
}

}  // namespace sgemm_tune
