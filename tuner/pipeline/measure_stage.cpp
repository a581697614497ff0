#include "tuner/pipeline/measure_stage.h"

#include <algorithm>
#include <chrono>

#include "tuner/gpu/cuda_check.h"
#include "tuner/pipeline/judge.h"

namespace sgemm_tune {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Machine code kept per shape at the end of a run (sgemm-tune emit ships the best's).
constexpr std::size_t kKeptCodePerShape = 3;

}  // namespace

MeasureStage::MeasureStage(const TuneOptions &o, const GpuInfo &gpu, RunTally &tally,
                           std::function<void(const std::string &)> say)
    : shape_list_(o.shapes), tally_(tally), say_(std::move(say)) {
  const auto t = Clock::now();
  const auto seed = static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  const BenchConfig config{o.device, o.shapes, o.space.timing, o.space.verify, seed};
  bench_ = o.worker_binary.empty() ? make_in_process_bench(gpu, config) : make_isolated_bench(o.worker_binary, config);
  cublas_seconds_ += seconds_since(t);
  for (const auto &b : bench_->baselines())
    shapes_.push_back(ShapeReport{b.shape, b.cublas.median_ms, b.cublas_tflops, 0, {}});
  best_ms_.assign(o.shapes.size(), 0.0);
}

std::vector<SgemmTile> MeasureStage::reuse_prior(const std::vector<SgemmTile> &tiles, const RunDatabase &database) {
  std::vector<SgemmTile> rest;
  for (const SgemmTile &tile : tiles) {
    bool complete = true;
    for (std::size_t i = 0; i < shape_list_.size(); ++i) {
      if (!tiles_shape(tile, shape_list_[i])) continue;
      const PriorResult *p = database.prior(tile, shape_list_[i]);
      if (!p) {
        complete = false;
        continue;
      }
      tally_.count(RunEvent::reused);
      take_prior(tile, i, *p);
    }
    if (complete) tally_.count(RunEvent::reused_whole);
    else rest.push_back(tile);
  }
  if (rest.size() < tiles.size())
    say_("resuming: " + std::to_string(tiles.size() - rest.size()) +
         " candidates already measured under the same fingerprint are not measured again");
  tally_.publish();
  return rest;
}

void MeasureStage::take_prior(const SgemmTile &tile, std::size_t shape, const PriorResult &p) {
  if (p.status != CandidateStatus::ok || p.time_ms <= 0) return;
  const ShapeBaseline &base = bench_->baselines()[shape];
  rank(RankedResult{tile, p.time_ms, tflops(shape_list_[shape], p.time_ms), 100.0 * base.cublas.median_ms / p.time_ms,
                    p.registers, p.blocks_per_sm, p.error},
       shape);
}

void MeasureStage::measure(const CompiledKernel &kernel, const Occupancy &occupancy, std::vector<ResultRow> &rows) {
  const auto gpu_start = Clock::now();
  std::vector<std::size_t> shape_index;
  std::vector<double> best;
  for (const ResultRow &r : rows) {
    shape_index.push_back(
        static_cast<std::size_t>(std::find(shape_list_.begin(), shape_list_.end(), r.shape) - shape_list_.begin()));
    best.push_back(best_ms_[shape_index.back()]);
  }
  CandidateMeasurement measured;
  try {
    measured = bench_->measure(kernel, shape_index, best);
  } catch (const CudaError &e) {
    for (ResultRow &r : rows) take_outcome(r, failed_measurement(e));
    throw;
  }
  for (const auto &notice : measured.notices) say_(notice);
  const std::optional<int> runtime_blocks = measured.runtime_blocks;
  if (runtime_blocks && *runtime_blocks != occupancy.blocks_per_sm) {
    tally_.count(RunEvent::occupancy_mismatch);
    say_("occupancy model predicted " + std::to_string(occupancy.blocks_per_sm) + " blocks/SM, the runtime says " +
         std::to_string(*runtime_blocks) + ": " + describe_tile(kernel.tile));
  }
  for (std::size_t k = 0; k < rows.size(); ++k) {
    rows[k].runtime_blocks_per_sm = runtime_blocks;
    take(kernel, occupancy, shape_index[k], measured.per_shape.at(k), rows[k]);
  }
  tally_.count(RunEvent::timed);
  gpu_seconds_ += seconds_since(gpu_start);
}

void MeasureStage::take(const CompiledKernel &kernel, const Occupancy &occupancy, std::size_t shape,
                        const Measurement &m, ResultRow &row) {
  const ShapeBaseline &base = bench_->baselines()[shape];
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
  } else if (!contender_code_.count(kernel.tile)) {
    contender_code_.emplace(kernel.tile, std::make_pair(kernel.lowered_name, kernel.cubin));
  }
  const RankedResult ranked{kernel.tile,
                            timing.median_ms,
                            m.tflops,
                            100.0 * base.cublas.median_ms / timing.median_ms,
                            kernel.usage.registers,
                            occupancy.blocks_per_sm,
                            std::max(m.verification->error_beta0, m.verification->error_beta)};
  rank(ranked, shape);
  tally_.note_best(ranked.percent_of_cublas, ranked.tflops);
}

void MeasureStage::rank(const RankedResult &result, std::size_t shape) {
  shapes_[shape].ranked.push_back(result);
  if (best_ms_[shape] == 0 || result.time_ms < best_ms_[shape]) best_ms_[shape] = result.time_ms;
}

SearchHistory MeasureStage::history() const {
  SearchHistory h{shapes_.size(), {}, {}};
  for (std::size_t i = 0; i < shapes_.size(); ++i)
    for (const RankedResult &r : shapes_[i].ranked) h.timed.push_back(TimedResult{r.tile, i, r.time_ms, r.percent_of_cublas});
  return h;
}

void MeasureStage::finish(RunDatabase &database) {
  const auto t = Clock::now();
  for (std::size_t i = 0; i < shapes_.size(); ++i) {
    shapes_[i].cublas_end_ms = bench_->time_cublas(i).median_ms;
    auto &ranked = shapes_[i].ranked;
    std::sort(ranked.begin(), ranked.end(), [](const RankedResult &a, const RankedResult &b) {
      return a.time_ms != b.time_ms ? a.time_ms < b.time_ms : a.tile < b.tile;
    });
    // The machine code of the fastest few, for headers that ship exactly what was timed.
    for (std::size_t r = 0; r < ranked.size() && r < kKeptCodePerShape; ++r) {
      const auto code = contender_code_.find(ranked[r].tile);
      if (code != contender_code_.end()) database.keep_kernel(ranked[r].tile, code->second.first, code->second.second);
    }
  }
  cublas_seconds_ += seconds_since(t);
}

}  // namespace sgemm_tune
