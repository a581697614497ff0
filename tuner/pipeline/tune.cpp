#include "tuner/pipeline/tune.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <map>
#include <memory>
#include <set>

#include "tuner/common/errors.h"
#include "tuner/compile/nvrtc_compiler.h"
#include "tuner/gpu/cuda_check.h"
#include "tuner/pipeline/compile_pool.h"
#include "tuner/prune/prune.h"
#include "tuner/record/result_store.h"
#include "tuner/space/enumerate.h"
#include "tuner/time/candidate_bench.h"
#include "tuner/version.h"

namespace sgemm_tune {
namespace {

using Clock = std::chrono::steady_clock;

// Set from a signal handler: lock-free and nothing else.
volatile std::sig_atomic_t g_stop_requested = 0;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Reason codes of results decided by the search rather than by the kernel or the GPU.
constexpr const char *kShapeNotTiled = "shape_not_tiled";
constexpr const char *kNotFinalist = "not_finalist";

// Machine code kept per shape at the end of a run (sgemm-tune emit ships the best's).
constexpr std::size_t kKeptCodePerShape = 3;

std::string first_line(const std::string &text) { return text.substr(0, text.find('\n')); }

// The first lines of NVRTC's log that say what went wrong.
std::string log_excerpt(const std::string &log, std::size_t lines = 3) {
  std::string out;
  std::size_t pos = 0;
  while (lines > 0 && pos < log.size()) {
    const std::size_t end = log.find('\n', pos);
    const std::string line = log.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (line.find("error") != std::string::npos) {
      out += (out.empty() ? "" : " | ") + line;
      --lines;
    }
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return out.empty() ? first_line(log) : out;
}

struct Target {
  SmLimits limits;
  std::optional<GpuInfo> gpu;
};

Target resolve_target(const TuneOptions &o) {
  Target t;
  if (!o.dry_run) {
    t.gpu = open_gpu(o.device);
    t.limits = sm_limits_from_device(o.device);
    if (o.arch && *o.arch != t.gpu->arch())
      throw UserError("--arch " + *o.arch + " does not match GPU " + std::to_string(o.device) + " (" + t.gpu->name +
                      ", " + t.gpu->arch() + "); --arch other than the GPU's is only for --dry-run");
    return t;
  }
  if (o.arch) {
    t.limits = sm_limits_for_arch(*o.arch);
    return t;
  }
  if (gpu_count() > o.device) {
    t.limits = sm_limits_from_device(o.device);
    return t;
  }
  std::string known;
  for (const auto &a : known_archs()) known += (known.empty() ? "" : ", ") + a;
  throw UserError("--dry-run with no GPU needs --arch to say what to compile for (one of: " + known + ")");
}

// A measurement's disposition and verification errors, into the row that records it.
void take_outcome(ResultRow &row, const Measurement &m) {
  row.status = m.status;
  row.reason = m.reason;
  row.detail = m.detail;
  if (m.verification) {
    row.error_beta0 = m.verification->error_beta0;
    row.error_beta = m.verification->error_beta;
  }
}

// A tile with the probed parameters blanked: what the first stage of a staged search ranks.
SgemmTile structure_of(SgemmTile tile, const StrategySettings &s) {
  for (const auto &[index, value] : s.probe) set_tile_parameter(tile, index, 0);
  return tile;
}

bool is_probe(const SgemmTile &tile, const StrategySettings &s) {
  for (const auto &[index, value] : s.probe)
    if (tile_parameter(tile, index) != value) return false;
  return true;
}

class TuningRun {
 public:
  TuningRun(const TuneOptions &o, const TuneCallbacks &cb) : o_(o), cb_(cb), start_(Clock::now()) {}

  TuneReport run() {
    if (o_.shapes.empty())
      throw UserError(o_.space.source + ": no problem shapes to tune (add \"shapes\" to the space or pass --shape)");
    if (o_.jobs < 1) throw UserError("--jobs must be at least 1");
    target_ = resolve_target(o_);
    compile_options_.arch = target_.limits.arch;
    compile_options_.extra = o_.extra_compile_options;
    init_report();

    const Enumeration en = enumerate_candidates(o_.space);
    counts().enumerated = en.enumerated;
    counts().excluded_by_constraint = en.excluded_by_constraint;
    counts().candidates = en.candidates.size();
    const bool staged = o_.space.strategy.kind == StrategySettings::Kind::staged;
    // The space's references (the seed's configuration) are timed in every run, staged or
    // not: they are the yardstick the report ranks against.
    const auto is_reference = [&](const SgemmTile &t) {
      for (const auto &ref : o_.space.references)
        if (ref.second == t) return true;
      return false;
    };
    std::vector<SgemmTile> first, deferred;
    for (const SgemmTile &t : en.candidates)
      (!staged || is_probe(t, o_.space.strategy) || is_reference(t) ? first : deferred).push_back(t);
    progress_.total = first.size();
    if (staged) progress_.stage = "stage 1 of 2";

    std::vector<ResultRow> early_rows;
    const std::vector<SgemmTile> to_compile = judge(first, early_rows);
    open_database();
    record(early_rows);
    publish();

    try {
      if (!o_.dry_run) start_gpu();
      compile_and_measure(to_compile);
      if (staged) second_stage(deferred);
      finish_gpu();
      if (store_) store_->finish_run(run_id_, true);
    } catch (...) {
      if (store_) {
        try {
          store_->finish_run(run_id_, false);
        } catch (...) {
          // The original error matters more than a failure to mark the run.
        }
      }
      throw;
    }
    std::sort(report_.survivors.begin(), report_.survivors.end(),
              [](const SurvivorInfo &a, const SurvivorInfo &b) { return a.tile < b.tile; });
    report_.wall_seconds = seconds_since(start_);
    return std::move(report_);
  }

 private:
  TuneCounts &counts() { return report_.counts; }

  void say(const std::string &m) const {
    if (cb_.message) cb_.message(m);
  }

  void publish() {
    progress_.elapsed_seconds = seconds_since(start_);
    progress_.pruned = counts().pruned_total();
    if (cb_.progress) cb_.progress(progress_);
  }

  void init_report() {
    report_.space_name = o_.space.name;
    report_.arch = target_.limits.arch;
    report_.dry_run = o_.dry_run;
    report_.gpu = target_.gpu;
    report_.db_path = o_.dry_run ? "" : o_.db_path;
    report_.template_hash = o_.kernel.hash;
    report_.compile_options = compile_options_.to_string();
    report_.jobs = o_.jobs;
    report_.references = o_.space.references;
    report_.strategy = o_.space.strategy.kind == StrategySettings::Kind::staged ? "staged" : "exhaustive";
  }

  ResultRow row(const Shape &shape, const SgemmTile &tile, CandidateStatus status, std::string reason,
                std::string detail) const {
    ResultRow r;
    r.shape = shape;
    r.tile = tile;
    r.status = status;
    r.reason = std::move(reason);
    r.detail = std::move(detail);
    r.threads = sgemm_tune_kernels::tile_threads(tile);
    return r;
  }

  bool fits(const SgemmTile &tile, const Shape &s) const {
    return sgemm_tune_kernels::shape_fits_tile(tile, s.M, s.N, s.K);
  }

  // Everything decided without a compiler: validity, tiling of the shapes, and what the
  // tile alone says about residency. Returns the tiles left to compile.
  std::vector<SgemmTile> judge(const std::vector<SgemmTile> &tiles, std::vector<ResultRow> &rows) {
    std::vector<SgemmTile> to_compile;
    for (const SgemmTile &tile : tiles) {
      const TileRule rule = sgemm_tune_kernels::check_tile(tile);
      if (rule != TileRule::ok) {
        ++counts().invalid;
        ++progress_.done;
        for (const Shape &s : o_.shapes)
          rows.push_back(row(s, tile, CandidateStatus::invalid, std::string(tile_rule_code(rule)),
                             sgemm_tune_kernels::tile_rule_text(rule)));
        continue;
      }
      bool fits_any = false;
      for (const Shape &s : o_.shapes) {
        if (fits(tile, s)) {
          fits_any = true;
          continue;
        }
        rows.push_back(row(s, tile, CandidateStatus::invalid, kShapeNotTiled,
                           "the shape is not a whole number of " + std::to_string(tile.BM) + "x" +
                               std::to_string(tile.BN) + "x" + std::to_string(tile.BK) + " tiles"));
      }
      if (!fits_any) {
        ++counts().invalid;
        ++progress_.done;
        continue;
      }
      const PruneVerdict early = prune_before_compile(tile, o_.space.prune, target_.limits);
      if (early.pruned) {
        ++counts().pruned[early.reason];
        ++progress_.done;
        for (const Shape &s : o_.shapes) {
          if (!fits(tile, s)) continue;
          rows.push_back(row(s, tile, CandidateStatus::pruned, early.reason, early.detail));
          rows.back().smem_bytes = sgemm_tune_kernels::tile_smem_bytes(tile);
        }
        continue;
      }
      to_compile.push_back(tile);
    }
    return to_compile;
  }

  // Opened before any GPU work, so that a bad path fails at once.
  void open_database() {
    if (o_.dry_run) return;
    store_ = std::make_unique<ResultStore>(o_.db_path);
    const GpuInfo &gpu = *target_.gpu;
    RunProvenance prov;
    prov.command = o_.command_line;
    prov.space_name = o_.space.name;
    prov.space_source = o_.space.source;
    prov.space_hash = o_.space.content_hash;
    prov.sm_count = gpu.sm_count;
    prov.clock_mhz = gpu.clock_mhz;
    prov.runtime_version = gpu.runtime_version;
    prov.template_origin = o_.kernel.origin;
    prov.fingerprint = Fingerprint{o_.kernel.hash,       compile_options_.to_string(), nvrtc_version(),
                                   gpu.driver_version,   gpu.name,                     gpu.compute_capability(),
                                   kTunerVersion};
    run_id_ = store_->begin_run(prov);
    fingerprint_ = prov.fingerprint.hash();
    for (const PriorResult &p : store_->prior_results(fingerprint_)) prior_.emplace(std::make_pair(p.tile, p.shape), p);
    report_.run_id = run_id_;
  }

  void record(const std::vector<ResultRow> &rows) {
    if (store_ && !rows.empty()) store_->record_all(run_id_, rows);
  }

  void start_gpu() {
    const auto t = Clock::now();
    const auto seed = static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
    BenchConfig config{o_.device, o_.shapes, o_.space.timing, o_.space.verify, seed};
    bench_ = o_.worker_binary.empty() ? make_in_process_bench(*target_.gpu, config)
                                      : make_isolated_bench(o_.worker_binary, config);
    report_.cublas_seconds += seconds_since(t);
    for (const auto &b : bench_->baselines())
      report_.shapes.push_back(ShapeReport{b.shape, b.cublas.median_ms, b.cublas_tflops, 0, {}});
    best_ms_.assign(o_.shapes.size(), 0.0);
  }

  void finish_gpu() {
    if (!bench_) return;
    const auto t = Clock::now();
    for (std::size_t i = 0; i < report_.shapes.size(); ++i) {
      report_.shapes[i].cublas_end_ms = bench_->time_cublas(i).median_ms;
      auto &ranked = report_.shapes[i].ranked;
      std::sort(ranked.begin(), ranked.end(), [](const RankedResult &a, const RankedResult &b) {
        return a.time_ms != b.time_ms ? a.time_ms < b.time_ms : a.tile < b.tile;
      });
      // The machine code of the fastest few, for headers that ship exactly what was timed.
      for (std::size_t r = 0; r < ranked.size() && r < kKeptCodePerShape; ++r) {
        const auto code = contender_code_.find(ranked[r].tile);
        if (code != contender_code_.end())
          store_->record_kernel(fingerprint_, ranked[r].tile, code->second.first, code->second.second);
      }
    }
    report_.cublas_seconds += seconds_since(t);
  }

  // What was measured under this fingerprint before (an interrupted or earlier run) is not
  // measured again: it joins this run's ranking. Returns the tiles that still have a shape
  // to measure; judge_compiled skips the shapes they already have.
  std::vector<SgemmTile> reuse_prior(const std::vector<SgemmTile> &tiles) {
    if (!bench_ || prior_.empty()) return tiles;
    std::vector<SgemmTile> rest;
    for (const SgemmTile &tile : tiles) {
      bool complete = true;
      for (std::size_t i = 0; i < o_.shapes.size(); ++i) {
        if (!fits(tile, o_.shapes[i])) continue;
        const PriorResult *p = prior(tile, o_.shapes[i]);
        if (!p) {
          complete = false;
          continue;
        }
        ++counts().reused;
        if (p->status != CandidateStatus::ok || p->time_ms <= 0) continue;
        const ShapeBaseline &base = bench_->baselines()[i];
        report_.shapes[i].ranked.push_back(RankedResult{tile, p->time_ms, tflops(o_.shapes[i], p->time_ms),
                                                        100.0 * base.cublas.median_ms / p->time_ms, p->registers,
                                                        p->blocks_per_sm, p->error});
        if (best_ms_[i] == 0 || p->time_ms < best_ms_[i]) best_ms_[i] = p->time_ms;
      }
      if (complete)
        ++progress_.done;
      else
        rest.push_back(tile);
    }
    if (rest.size() < tiles.size())
      say("resuming: " + std::to_string(tiles.size() - rest.size()) +
          " candidates already measured under the same fingerprint are not measured again");
    publish();
    return rest;
  }

  const PriorResult *prior(const SgemmTile &tile, const Shape &shape) const {
    if (!bench_) return nullptr;
    const auto p = prior_.find(std::make_pair(tile, shape));
    return p == prior_.end() ? nullptr : &p->second;
  }

  void compile_and_measure(const std::vector<SgemmTile> &all_tiles) {
    const std::vector<SgemmTile> tiles = reuse_prior(all_tiles);
    if (tiles.empty()) return;
    const auto compile_start = Clock::now();
    CompilePool pool(o_.kernel, compile_options_, tiles, o_.jobs);
    while (auto outcome = pool.next()) {
      if (g_stop_requested) throw TuningInterrupted();
      report_.compile_cpu_seconds += outcome->seconds;
      const double compiled_at = seconds_since(compile_start);
      std::vector<ResultRow> rows = outcome->kernel ? judge_compiled(*outcome) : compile_failure(*outcome);
      record(rows);
      ++progress_.done;
      publish();
      // Wall time of compilation alone: up to the last compile, not the last measurement.
      last_compile_seconds_ = compiled_at;
    }
    report_.compile_wall_seconds += last_compile_seconds_;
  }

  std::vector<ResultRow> compile_failure(const CompileOutcome &outcome) {
    ++counts().compile_failed;
    ++progress_.failed;
    say("compile failed: " + describe_tile(outcome.tile) + ": " +
        log_excerpt(outcome.log.empty() ? outcome.error : outcome.log));
    std::vector<ResultRow> rows;
    for (const Shape &s : o_.shapes) {
      if (!fits(outcome.tile, s)) continue;
      rows.push_back(row(s, outcome.tile, CandidateStatus::compile_failed, "nvrtc", outcome.error));
      if (!outcome.log.empty()) rows.back().detail += "\n" + outcome.log;
      rows.back().compile_seconds = outcome.seconds;
    }
    return rows;
  }

  std::vector<ResultRow> judge_compiled(const CompileOutcome &outcome) {
    ++counts().compiled;
    ++progress_.compiled;
    const SgemmTile &tile = outcome.tile;
    const CompiledKernel &kernel = *outcome.kernel;
    const ResourceUsage &usage = kernel.usage;
    const Occupancy occ = predict_occupancy(target_.limits, tile_resources(tile, usage.registers, usage.static_smem_bytes));
    const PruneVerdict verdict = prune_after_compile(tile, usage, occ, o_.space.prune);

    std::vector<ResultRow> rows;
    for (const Shape &s : o_.shapes) {
      if (!fits(tile, s) || prior(tile, s)) continue;
      rows.push_back(row(s, tile, verdict.pruned ? CandidateStatus::pruned : CandidateStatus::ok, verdict.reason,
                         verdict.detail));
      ResultRow &r = rows.back();
      r.registers = usage.registers;
      r.spill_bytes = usage.spill_store_bytes + usage.spill_load_bytes;
      r.smem_bytes = sgemm_tune_kernels::tile_smem_bytes(tile) + usage.static_smem_bytes;
      r.blocks_per_sm = occ.blocks_per_sm;
      r.occupancy = occ.fraction;
      r.compile_seconds = outcome.seconds;
    }
    if (verdict.pruned) {
      ++counts().pruned[verdict.reason];
      return rows;
    }
    ++counts().survivors;
    report_.survivors.push_back(SurvivorInfo{tile, sgemm_tune_kernels::tile_threads(tile), usage.registers,
                                             sgemm_tune_kernels::tile_smem_bytes(tile) + usage.static_smem_bytes,
                                             occ.blocks_per_sm, occ.warps_per_sm,
                                             std::string(to_string(occ.limiter))});
    if (bench_) measure(kernel, occ, rows);
    return rows;
  }

  // Verifies and times a survivor at every shape it tiles, filling in its rows.
  void measure(const CompiledKernel &kernel, const Occupancy &occ, std::vector<ResultRow> &rows) {
    const auto gpu_start = Clock::now();
    const SgemmTile &tile = kernel.tile;
    std::vector<std::size_t> shape_index;
    std::vector<double> best;
    for (const ResultRow &r : rows) {
      shape_index.push_back(static_cast<std::size_t>(std::find(o_.shapes.begin(), o_.shapes.end(), r.shape) -
                                                     o_.shapes.begin()));
      best.push_back(best_ms_[shape_index.back()]);
    }
    CandidateMeasurement measured;
    try {
      measured = bench_->measure(kernel, shape_index, best);
    } catch (const CudaError &e) {
      // In-process only: the context is gone. Record what happened to this candidate, then stop.
      for (ResultRow &r : rows) take_outcome(r, failed_measurement(e));
      record(rows);
      throw;
    }
    for (const auto &notice : measured.notices) say(notice);
    const std::optional<int> runtime_blocks = measured.runtime_blocks;
    if (runtime_blocks && *runtime_blocks != occ.blocks_per_sm) {
      ++counts().occupancy_model_mismatches;
      say("occupancy model predicted " + std::to_string(occ.blocks_per_sm) + " blocks/SM, the runtime says " +
          std::to_string(*runtime_blocks) + ": " + describe_tile(tile));
    }

    for (std::size_t k = 0; k < rows.size(); ++k) {
      ResultRow &r = rows[k];
      const std::size_t i = shape_index[k];
      const ShapeBaseline &base = bench_->baselines()[i];
      r.runtime_blocks_per_sm = runtime_blocks;
      r.cublas_ms = base.cublas.median_ms;
      r.cublas_tflops = base.cublas_tflops;
      ++counts().measurements;
      const Measurement &m = measured.per_shape.at(k);
      take_outcome(r, m);
      if (m.status == CandidateStatus::wrong_result) {
        ++counts().wrong_result;
        say("wrong result: " + describe_tile(tile) + " at " + r.shape.to_string() + ": " + m.detail);
        continue;
      }
      if (m.status == CandidateStatus::launch_failed) {
        ++counts().launch_failed;
        say("launch failed: " + describe_tile(tile) + " at " + r.shape.to_string() + ": " + m.detail);
        continue;
      }
      ++counts().ok;
      r.time_ms = m.timing->median_ms;
      r.tflops = m.tflops;
      r.repeats = m.timing->repeats;
      if (m.timing->stopped_early) {
        ++counts().stopped_early;
        r.detail = "timing stopped after " + std::to_string(m.timing->repeats) + " launches: slower than the best by more than the margin";
      }
      if (best_ms_[i] == 0 || m.timing->median_ms < best_ms_[i]) best_ms_[i] = m.timing->median_ms;
      if (!m.timing->stopped_early && !contender_code_.count(tile))
        contender_code_.emplace(tile, std::make_pair(kernel.lowered_name, kernel.cubin));
      const RankedResult ranked{tile,
                                m.timing->median_ms,
                                m.tflops,
                                100.0 * base.cublas.median_ms / m.timing->median_ms,
                                kernel.usage.registers,
                                occ.blocks_per_sm,
                                std::max(m.verification->error_beta0, m.verification->error_beta)};
      report_.shapes[i].ranked.push_back(ranked);
      if (ranked.percent_of_cublas > progress_.best_percent) {
        progress_.best_percent = ranked.percent_of_cublas;
        progress_.best_tflops = ranked.tflops;
      }
    }
    ++progress_.timed;
    report_.gpu_seconds += seconds_since(gpu_start);
  }

  // Staged search: rank the first stage's tile structures by their mean percent of
  // cuBLAS over the shapes, and search the probed parameters for the best of them.
  void second_stage(const std::vector<SgemmTile> &deferred) {
    const StrategySettings &strategy = o_.space.strategy;
    progress_.stage = "stage 2 of 2";
    progress_.total += deferred.size();
    // What needs no compiler is judged for every candidate, finalist or not.
    std::vector<ResultRow> rows;
    const std::vector<SgemmTile> candidates = judge(deferred, rows);
    if (!bench_) {
      record(rows);
      counts().deferred = candidates.size();
      progress_.done += candidates.size();  // settled, as far as a dry run goes
      if (!candidates.empty())
        say("dry run: the staged search's second stage needs timings; " + std::to_string(candidates.size()) +
            " candidates were left unjudged");
      publish();
      return;
    }
    std::map<SgemmTile, double> score;
    for (const ShapeReport &s : report_.shapes)
      for (const RankedResult &r : s.ranked)
        if (is_probe(r.tile, strategy))  // a reference off the probe values would count its structure twice
          score[structure_of(r.tile, strategy)] += r.percent_of_cublas / static_cast<double>(report_.shapes.size());
    std::vector<std::pair<double, SgemmTile>> order;
    for (const auto &[structure, value] : score) order.emplace_back(-value, structure);
    std::sort(order.begin(), order.end());
    std::set<SgemmTile> finalists;
    for (std::size_t i = 0; i < order.size() && finalists.size() < static_cast<std::size_t>(strategy.finalists); ++i) {
      finalists.insert(order[i].second);
      report_.finalists.push_back(order[i].second);
    }

    std::vector<SgemmTile> second;
    for (const SgemmTile &tile : candidates) {
      if (finalists.count(structure_of(tile, strategy))) {
        second.push_back(tile);
        continue;
      }
      ++counts().pruned[kNotFinalist];
      ++progress_.done;
      for (const Shape &s : o_.shapes)
        if (fits(tile, s))
          rows.push_back(row(s, tile, CandidateStatus::pruned, kNotFinalist,
                             "staged search: its tile structure was not among the " +
                                 std::to_string(strategy.finalists) + " best of the first stage"));
    }
    record(rows);
    publish();
    compile_and_measure(second);
  }

  const TuneOptions &o_;
  const TuneCallbacks &cb_;
  const Clock::time_point start_;
  Target target_;
  CompileOptions compile_options_;
  TuneReport report_;
  ProgressUpdate progress_;
  std::unique_ptr<ResultStore> store_;
  std::int64_t run_id_ = 0;
  std::unique_ptr<CandidateBench> bench_;
  std::vector<double> best_ms_;
  std::string fingerprint_;
  std::map<std::pair<SgemmTile, Shape>, PriorResult> prior_;
  // (lowered name, cubin) of candidates that were not stopped early: they could win.
  std::map<SgemmTile, std::pair<std::string, std::string>> contender_code_;
  double last_compile_seconds_ = 0;
};

}  // namespace

void request_stop() { g_stop_requested = 1; }

std::size_t TuneCounts::pruned_total() const {
  std::size_t n = 0;
  for (const auto &[reason, count] : pruned) n += count;
  return n;
}

TuneReport run_tuning(const TuneOptions &options, const TuneCallbacks &callbacks) {
  return TuningRun(options, callbacks).run();
}

}  // namespace sgemm_tune
