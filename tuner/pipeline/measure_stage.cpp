#include "tuner/pipeline/measure_stage.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <stdexcept>

#include "tuner/gpu/cuda_check.h"
#include "tuner/pipeline/judge.h"

namespace sgemm_tune {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Runs `work(lane)` for every lane, each on a thread of its own, and waits for all of
// them; the first exception is rethrown after every one has ended.
template <class Work>
void on_every_gpu(std::size_t lanes, const Work &work) {
  std::vector<std::future<void>> running;
  for (std::size_t lane = 0; lane < lanes; ++lane)
    running.push_back(std::async(std::launch::async, [&work, lane] { work(lane); }));
  std::exception_ptr first;
  for (auto &r : running) {
    try {
      r.get();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace

MeasureStage::MeasureStage(const TuneOptions &o, const std::vector<GpuInfo> &gpus, RunTally &tally,
                           std::function<void(const std::string &)> say, std::function<void()> on_measured)
    : shape_list_(o.shapes), tally_(tally), say_(std::move(say)) {
  const auto t = Clock::now();
  const auto seed = static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  lanes_.resize(gpus.size());
  on_every_gpu(gpus.size(), [&](std::size_t lane) {
    const BenchConfig config{gpus[lane].device, o.shapes, o.space.timing, o.space.verify, seed};
    lanes_[lane].gpu = gpus[lane];
    lanes_[lane].bench = o.worker_binary.empty() ? make_in_process_bench(gpus[lane], config)
                                                 : make_isolated_bench(o.worker_binary, config);
  });
  cublas_seconds_ += seconds_since(t);
  std::vector<ShapeReport> shapes;
  for (const auto &b : lanes_.front().bench->baselines())
    shapes.push_back(ShapeReport{b.shape, b.cublas.median_ms, b.cublas_tflops, 0, {}});
  rankings_ = std::make_unique<ShapeRankings>(std::move(shapes));
  tally_.measure_on(gpus);
  dispatcher_ = std::make_unique<Dispatcher<std::shared_ptr<Job>>>(lanes_.size(), std::move(on_measured));
}

MeasureStage::~MeasureStage() = default;

std::vector<ProposalLedger::Take> MeasureStage::reuse_prior(const std::vector<ProposalLedger::Take> &takes,
                                                            const RunDatabase &database) {
  std::vector<ProposalLedger::Take> rest;
  for (const ProposalLedger::Take &take : takes) {
    const SgemmTile &tile = take.tile;
    // Whole where the take has a shape the tile tiles and every such shape was measured
    // before (a take with none goes on, to be settled as compiled).
    bool checked = false, missing = false;
    for (std::size_t i = 0; i < shape_list_.size(); ++i) {
      if (!take.shapes[i] || !tile_serves_shape(tile, shape_list_[i])) continue;
      const PriorResult *p = database.prior(tile, shape_list_[i]);
      if (!p) {
        missing = true;
        continue;
      }
      checked = true;
      tally_.count(RunEvent::reused);
      take_prior(tile, i, *p);
    }
    if (checked && !missing) tally_.count(RunEvent::reused_whole);
    else rest.push_back(take);
  }
  if (rest.size() < takes.size())
    say_("resuming: " + std::to_string(takes.size() - rest.size()) + " of the " + std::to_string(takes.size()) +
         " candidates in hand were measured under the same fingerprint before and are not measured again");
  tally_.publish();
  return rest;
}

void MeasureStage::take_prior(const SgemmTile &tile, std::size_t shape, const PriorResult &p) {
  if (p.status != CandidateStatus::ok || p.time_ms <= 0) return;
  // Measured by an earlier run, on a GPU of this model: compared with this run's first GPU's cuBLAS.
  const ShapeBaseline &base = lanes_.front().bench->baselines()[shape];
  rankings_->rank(RankedResult{tile, p.time_ms, tflops(shape_list_[shape], p.time_ms),
                               100.0 * base.cublas.median_ms / p.time_ms, p.registers, p.blocks_per_sm, p.error,
                               std::nullopt},
                  shape);
}

void MeasureStage::submit(CompiledKernel kernel, const Occupancy &occupancy, std::vector<ResultRow> rows) {
  auto job = std::make_shared<Job>();
  job->kernel = std::move(kernel);
  job->occupancy = occupancy;
  job->rows = std::move(rows);
  for (const ResultRow &r : job->rows)
    job->shape_index.push_back(
        static_cast<std::size_t>(std::find(shape_list_.begin(), shape_list_.end(), r.shape) - shape_list_.begin()));
  dispatcher_->submit([this, job](std::size_t lane) { return run(job, lane); });
}

std::shared_ptr<MeasureStage::Job> MeasureStage::run(std::shared_ptr<Job> job, std::size_t lane) {
  const auto start = Clock::now();
  job->lane = lane;
  try {
    job->measured = lanes_[lane].bench->measure(job->kernel, job->shape_index, rankings_->best_ms(job->shape_index));
  } catch (const CudaError &e) {
    job->measured = CandidateMeasurement{};
    job->measured.per_shape.assign(job->shape_index.size(), failed_measurement(e));
    job->fatal = std::current_exception();
  }
  job->seconds = seconds_since(start);
  return job;
}

std::optional<MeasuredCandidate> MeasureStage::take_measured() {
  std::optional<std::shared_ptr<Job>> job = dispatcher_->try_take();
  if (!job) return std::nullopt;
  return settle(**job);
}

MeasuredCandidate MeasureStage::wait_measured() { return settle(*dispatcher_->take()); }

bool MeasureStage::busy() const { return dispatcher_->busy(); }

std::size_t MeasureStage::cancel_waiting() { return dispatcher_->cancel_waiting(); }

MeasuredCandidate MeasureStage::settle(Job &job) {
  if (job.measured.per_shape.size() != job.rows.size())
    throw std::logic_error("a bench measured " + std::to_string(job.measured.per_shape.size()) + " shapes of " +
                           std::to_string(job.rows.size()));
  Lane &lane = lanes_[job.lane];
  ++lane.candidates;
  lane.gpu_seconds += job.seconds;
  gpu_seconds_ += job.seconds;
  for (ResultRow &row : job.rows) {
    row.device = lane.gpu.device;
    row.pci_bus_id = lane.gpu.pci_bus_id;
  }
  if (job.fatal) {
    for (std::size_t k = 0; k < job.rows.size(); ++k) take_outcome(job.rows[k], job.measured.per_shape[k]);
    return MeasuredCandidate{std::move(job.rows), job.fatal};
  }
  for (const auto &notice : job.measured.notices) say_(notice);
  const std::optional<int> runtime_blocks = job.measured.runtime_blocks;
  if (runtime_blocks && *runtime_blocks != job.occupancy.blocks_per_sm) {
    tally_.count(RunEvent::occupancy_mismatch);
    say_("occupancy model predicted " + std::to_string(job.occupancy.blocks_per_sm) + " blocks/SM, the runtime says " +
         std::to_string(*runtime_blocks) + ": " + describe_tile(job.kernel.tile));
  }
  for (std::size_t k = 0; k < job.rows.size(); ++k) {
    job.rows[k].runtime_blocks_per_sm = runtime_blocks;
    take(job, k, job.rows[k]);
  }
  tally_.count(RunEvent::timed);
  tally_.measured_on(job.lane, job.seconds);
  return MeasuredCandidate{std::move(job.rows), nullptr};
}

void MeasureStage::take(const Job &job, std::size_t k, ResultRow &row) {
  const std::size_t shape = job.shape_index[k];
  const Measurement &m = job.measured.per_shape[k];
  const CompiledKernel &kernel = job.kernel;
  // Against the cuBLAS of the GPU that measured it.
  const ShapeBaseline &base = lanes_[job.lane].bench->baselines()[shape];
  row.cublas_ms = base.cublas.median_ms;
  row.cublas_tflops = base.cublas_tflops;
  take_outcome(row, m);
  tally_.count(measurement_event(m.status));
  if (m.status != CandidateStatus::ok) {
    say_(std::string(m.status == CandidateStatus::wrong_result ? "wrong result: " : "launch failed: ") +
         describe_tile(kernel.tile) + " at " + row.shape.to_string() + ": " + m.detail);
    return;
  }
  const Timing &timing = *m.timing;
  row.time_ms = timing.median_ms;
  row.tflops = m.tflops;
  row.repeats = timing.repeats;
  if (timing.stopped_early) {
    tally_.count(RunEvent::stopped_early);
    row.detail = "timing stopped after " + std::to_string(timing.repeats) +
                 " launches: slower than the best by more than the margin";
  } else {
    rankings_->keep_code(kernel);
  }
  const RankedResult ranked{kernel.tile,
                            timing.median_ms,
                            m.tflops,
                            100.0 * base.cublas.median_ms / timing.median_ms,
                            kernel.usage.registers,
                            job.occupancy.blocks_per_sm,
                            std::max(m.verification->error_beta0, m.verification->error_beta),
                            lanes_[job.lane].gpu.device};
  rankings_->rank(ranked, shape);
  tally_.note_best(ranked.percent_of_cublas, ranked.tflops);
}

SearchHistory MeasureStage::history() const { return rankings_->history(); }

void MeasureStage::finish(RunDatabase &database) {
  const auto t = Clock::now();
  std::vector<ShapeReport> &shapes = rankings_->shapes();
  on_every_gpu(lanes_.size(), [&](std::size_t lane) {
    Lane &l = lanes_[lane];
    l.cublas_end_ms.clear();
    for (std::size_t i = 0; i < shapes.size(); ++i) l.cublas_end_ms.push_back(l.bench->time_cublas(i).median_ms);
  });
  for (std::size_t i = 0; i < shapes.size(); ++i) shapes[i].cublas_end_ms = lanes_.front().cublas_end_ms[i];
  rankings_->finish(database);
  cublas_seconds_ += seconds_since(t);
}

std::vector<DeviceReport> MeasureStage::devices() const {
  std::vector<DeviceReport> out;
  for (const Lane &l : lanes_) {
    DeviceReport d;
    d.device = l.gpu.device;
    d.pci_bus_id = l.gpu.pci_bus_id;
    d.candidates = l.candidates;
    d.gpu_seconds = l.gpu_seconds;
    for (const ShapeBaseline &b : l.bench->baselines()) d.cublas_ms.push_back(b.cublas.median_ms);
    d.cublas_end_ms = l.cublas_end_ms;
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace sgemm_tune
