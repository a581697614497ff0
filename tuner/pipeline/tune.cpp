#include "tuner/pipeline/tune.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "tuner/common/errors.h"
#include "tuner/compile/nvrtc_compiler.h"
#include "tuner/pipeline/compile_pool.h"
#include "tuner/pipeline/judge.h"
#include "tuner/pipeline/measure_stage.h"
#include "tuner/pipeline/report.h"
#include "tuner/pipeline/run_database.h"
#include "tuner/pipeline/run_tally.h"
#include "tuner/pipeline/wakeup.h"
#include "tuner/search/proposal_ledger.h"
#include "tuner/search/search_strategy.h"
#include "tuner/space/enumerate.h"

namespace sgemm_tune {
namespace {

using Clock = std::chrono::steady_clock;
using Take = ProposalLedger::Take;

// Set from a signal handler: lock-free and nothing else.
volatile std::sig_atomic_t g_stop_requested = 0;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Target {
  SmLimits limits;
  std::optional<GpuInfo> gpu;  // the first of `gpus`
  std::vector<GpuInfo> gpus;   // those that measure; none in a dry run
};

Target resolve_target(const TuneOptions &o) {
  Target t;
  if (!o.dry_run) {
    t.gpus = open_gpus(o.devices);
    t.gpu = t.gpus.front();
    t.limits = sm_limits_from_device(t.gpu->device);
    if (o.arch && *o.arch != t.gpu->arch())
      throw UserError("--arch " + *o.arch + " does not match GPU " + std::to_string(t.gpu->device) + " (" +
                      t.gpu->name + ", " + t.gpu->arch() + "); --arch other than the GPU's is only for --dry-run");
    return t;
  }
  if (o.arch) {
    t.limits = sm_limits_for_arch(*o.arch);
    return t;
  }
  if (const int count = gpu_count(); count > 0) {
    t.limits = sm_limits_from_device(resolve_devices(o.devices, count).front());
    return t;
  }
  std::string known;
  for (const auto &a : known_archs()) known += (known.empty() ? "" : ", ") + a;
  throw UserError("--dry-run with no GPU needs --arch to say what to compile for (one of: " + known + ")");
}

// The pipeline of one run: judge, compile, prune, measure, record. Which survivors are
// timed, and when, is the search strategy's to say.
class TuningRun {
 public:
  TuningRun(const TuneOptions &o, const TuneCallbacks &cb)
      : o_(o),
        cb_(cb),
        start_(Clock::now()),
        tally_(cb.progress, start_),
        strategy_(make_search_strategy(o.space, o.shapes)) {}

  TuneReport run() {
    if (o_.shapes.empty())
      throw UserError(o_.space.source + ": no problem shapes to tune (add \"shapes\" to the space or pass --shape)");
    // Each shape is one column of the run: its results, its cuBLAS time, its ranking.
    for (auto s = o_.shapes.begin(); s != o_.shapes.end(); ++s)
      if (std::find(o_.shapes.begin(), s, *s) != s) throw UserError("shape " + s->to_string() + " is given twice");
    if (o_.jobs < 1) throw UserError("--jobs must be at least 1");
    target_ = resolve_target(o_);
    compile_options_.arch = target_.limits.arch;
    compile_options_.extra = o_.extra_compile_options;
    init_report();

    Enumeration en = enumerate_candidates(o_.space);
    if (o_.shard.count > 1)
      en.candidates.erase(std::remove_if(en.candidates.begin(), en.candidates.end(),
                                         [&](const SgemmTile &t) { return !in_shard(t, o_.shard); }),
                          en.candidates.end());
    tally_.enumerated(en);
    std::vector<ResultRow> rows;
    const std::vector<SgemmTile> survivors = judge(en.candidates, rows);
    tally_.expect(en.candidates.size() - survivors.size());
    if (!o_.dry_run) database_ = std::make_unique<RunDatabase>(o_, *target_.gpu, compile_options_);
    // Read before this run records anything: what the database knew before it.
    if (database_ && o_.space.strategy.kind == StrategySettings::Kind::model)
      prior_ = database_->prior_timings(target_.gpu->name, o_.shapes);
    record(rows);
    try {
      if (!o_.dry_run)
        gpu_ = std::make_unique<MeasureStage>(
            o_, target_.gpus, tally_, [this](const std::string &m) { say(m); }, [this] { wakeup_.notify(); });
      search(survivors);
      if (gpu_) gpu_->finish(*database_);
      if (database_) database_->finish(true, counts_to_json(tally_.counts()).dump());
    } catch (...) {
      if (database_) database_->finish(false, counts_to_json(tally_.counts()).dump());
      throw;
    }
    return finish_report();
  }

 private:
  void say(const std::string &m) const {
    if (cb_.message) cb_.message(m);
  }

  void record(const std::vector<ResultRow> &rows) {
    if (database_) database_->record(rows);
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
    report_.strategy = strategy_->name();
    report_.timing_method = timing_method_name(o_.space.timing.method);
  }

  TuneReport finish_report() {
    report_.counts = tally_.counts();
    report_.run_id = database_ ? database_->run_id() : 0;
    report_.finalists = strategy_->finalists();
    if (gpu_) {
      report_.shapes = std::move(gpu_->shapes());
      report_.devices = gpu_->devices();
      report_.gpu_seconds = gpu_->gpu_seconds();
      report_.cublas_seconds = gpu_->cublas_seconds();
    }
    std::sort(report_.survivors.begin(), report_.survivors.end(),
              [](const SurvivorInfo &a, const SurvivorInfo &b) { return a.tile < b.tile; });
    report_.wall_seconds = seconds_since(start_);
    return std::move(report_);
  }

  // Everything decided without a compiler; returns the survivors, in enumeration order.
  std::vector<SgemmTile> judge(const std::vector<SgemmTile> &tiles, std::vector<ResultRow> &rows) {
    std::vector<SgemmTile> survivors;
    for (const SgemmTile &tile : tiles) {
      Judgement j = judge_before_compile(tile, o_.shapes, o_.space.prune, target_.limits);
      rows.insert(rows.end(), std::make_move_iterator(j.rows.begin()), std::make_move_iterator(j.rows.end()));
      switch (j.verdict) {
        case Judgement::Verdict::invalid: tally_.count(RunEvent::invalid); break;
        case Judgement::Verdict::pruned: tally_.count(RunEvent::pruned, j.reason); break;
        case Judgement::Verdict::survives: survivors.push_back(tile); break;
      }
    }
    return survivors;
  }

  // Batch after batch, as the strategy proposes them. A dry run times nothing, so no
  // strategy can choose past its first batch: what it leaves is counted as deferred.
  void search(const std::vector<SgemmTile> &survivors) {
    strategy_->start(survivors);
    // Holds the strategy to survivors only, each at a shape once.
    ProposalLedger ledger(survivors, o_.shapes.size());
    while (true) {
      SearchHistory history = gpu_ ? gpu_->history() : SearchHistory{o_.shapes.size(), {}, {}};
      history.prior = prior_;
      const SearchBatch batch = strategy_->next(history);
      if (batch.tiles.empty()) break;
      const std::vector<Take> takes = ledger.take(batch, strategy_->name());
      tally_.begin_stage(batch.stage);
      tally_.expect(takes.size());
      if (batch.last) settle_not_proposed(ledger);
      tally_.publish();
      compile_and_measure(takes);
      if (!gpu_) break;
    }
    if (gpu_) settle_not_proposed(ledger);
    else defer(ledger.never_proposed());
    tally_.publish();
  }

  // Why a candidate proposed at some shapes has no time to be ranked by, where it is its
  // own failure: NVRTC refused its fast kernel, or pruning dropped it, in this run; or NVRTC
  // refused it in a run this one resumes (at a shape the fast kernel runs: a refused edge
  // kernel fails only its own shapes).
  std::optional<ResultRow> failure_of(const SgemmTile &tile) const {
    if (const auto f = failed_tiles_.find(tile); f != failed_tiles_.end()) return f->second;
    if (!database_ || compiled_before_.count(tile)) return std::nullopt;
    for (const Shape &shape : o_.shapes) {
      const PriorResult *p = database_->prior(tile, shape);
      if (p && p->status == CandidateStatus::compile_failed && serving_kernel(tile, shape) == KernelVariant::exact)
        return compile_failed_row(shape, tile, "NVRTC refused it in an earlier run under the same fingerprint");
    }
    return std::nullopt;
  }

  // Records what the search did not propose: each survivor at the shapes it was never
  // proposed at, as pruned by the search, or with its own failure (failure_of). A survivor
  // proposed at none is settled here; one proposed at other shapes was settled then.
  void settle_not_proposed(ProposalLedger &ledger) {
    const std::vector<ProposalLedger::Left> left = ledger.settle();
    if (left.empty()) return;
    const NotProposed why = strategy_->not_proposed();
    std::vector<ResultRow> rows;
    for (const ProposalLedger::Left &l : left) {
      if (l.never_proposed) {
        tally_.expect(1);
        tally_.count(RunEvent::pruned, why.reason);
      }
      const std::optional<ResultRow> failed = l.never_proposed ? std::nullopt : failure_of(l.tile);
      for (std::size_t i = 0; i < o_.shapes.size(); ++i) {
        const Shape &shape = o_.shapes[i];
        if (!l.shapes[i] || !tile_serves_shape(l.tile, shape)) continue;
        if (!failed) {
          rows.push_back(result_row(shape, l.tile, CandidateStatus::pruned, why.reason, why.detail));
          continue;
        }
        // The verdict is the tile's; what was compiled and measured at its other shape is not.
        ResultRow row = *failed;
        row.shape = shape;
        row.compile_seconds.reset();
        if (serving_kernel(l.tile, shape) != KernelVariant::exact) {
          row.registers.reset();
          row.spill_bytes.reset();
        }
        rows.push_back(std::move(row));
      }
    }
    record(rows);
  }

  void defer(std::size_t candidates) {
    if (candidates == 0) return;
    tally_.expect(candidates);
    for (std::size_t i = 0; i < candidates; ++i) tally_.count(RunEvent::deferred);
    say("dry run: the " + strategy_->name() + " search needs timings to choose its next batch; " +
        std::to_string(candidates) + " candidates were left unjudged");
  }

  // Whether `take` leaves `shape` alone: not proposed in this batch, or measured before
  // under the same fingerprint (a resumed run).
  bool passes_over(const Take &take, const Shape &shape) const {
    const auto at = std::find(o_.shapes.begin(), o_.shapes.end(), shape);
    return !take.shapes.at(static_cast<std::size_t>(at - o_.shapes.begin())) ||
           (database_ && database_->prior(take.tile, shape));
  }

  // Compiles the batch and measures its survivors at the shapes proposed, recording each as
  // it lands, until every one is settled. This thread waits for whichever comes first: a
  // compiled candidate (judged, then handed to the GPUs) or a measured one (recorded).
  void compile_and_measure(const std::vector<Take> &batch) {
    const std::vector<Take> takes = gpu_ ? gpu_->reuse_prior(batch, *database_) : batch;
    if (takes.empty()) return;
    const auto compile_start = Clock::now();
    double last_compiled_at = 0;
    // Each tile's companions for the shapes it has still to measure, decided on this thread,
    // which alone reads the database, before the compile threads ask for them.
    std::map<SgemmTile, std::pair<const Take *, std::vector<CompanionRequest>>> of_tile;
    std::vector<SgemmTile> tiles;
    for (const Take &take : takes) {
      tiles.push_back(take.tile);
      of_tile[take.tile] = {&take, companions_for(take.tile, o_.shapes,
                                                  [&](const Shape &s) { return passes_over(take, s); })};
    }
    CompilePool pool(o_.kernel, compile_options_, tiles, o_.jobs, KernelVariant::exact, [this] { wakeup_.notify(); },
                     [&of_tile](const SgemmTile &tile) { return of_tile.at(tile).second; });
    while (true) {
      const std::uint64_t seen = wakeup_.count();
      bool moved = record_measured();
      if (g_stop_requested) stop_measuring();
      if (auto outcome = pool.try_next()) {
        report_.compile_cpu_seconds += outcome->seconds;
        // Wall time of compilation alone: up to the last compile, not the last measurement.
        last_compiled_at = seconds_since(compile_start);
        const Take &take = *of_tile.at(outcome->tile).first;
        record(outcome->kernel ? compiled(*outcome, take) : compile_failure(*outcome, take));
        tally_.publish();
        moved = true;
      }
      if (moved) continue;
      if (pool.exhausted() && !(gpu_ && gpu_->busy())) break;
      // A stop request (a signal) does not notify: look again at least this often.
      wakeup_.wait(seen, std::chrono::milliseconds(200));
    }
    report_.compile_wall_seconds += last_compiled_at;
  }

  // Records the survivors the GPUs have measured since last asked; whether there were any.
  bool record_measured() {
    if (!gpu_) return false;
    bool any = false;
    while (auto measured = gpu_->take_measured()) {
      any = true;
      record(measured->rows);
      tally_.publish();
      if (measured->fatal) {
        // In-process only: that GPU's context is gone. What the others have in hand is
        // recorded, then the run stops.
        drain_measuring();
        std::rethrow_exception(measured->fatal);
      }
    }
    return any;
  }

  // Ctrl-C or TERM: the survivors a GPU has started on are finished and recorded, the rest
  // dropped; the same command resumes from there.
  [[noreturn]] void stop_measuring() {
    if (gpu_) drain_measuring();
    throw TuningInterrupted(o_.dry_run);
  }

  void drain_measuring() {
    gpu_->cancel_waiting();
    while (gpu_->busy()) {
      record(gpu_->wait_measured().rows);
      tally_.publish();
    }
  }

  // A candidate NVRTC refused, at the shapes of this take. One compiled before in this run
  // (for an earlier batch) counts once, there.
  std::vector<ResultRow> compile_failure(const CompileOutcome &outcome, const Take &take) {
    tally_.count(compiled_before_.insert(outcome.tile).second ? RunEvent::compile_failed : RunEvent::taken_again);
    say("compile failed: " + describe_tile(outcome.tile) + ": " +
        log_excerpt(outcome.log.empty() ? outcome.error : outcome.log));
    std::vector<ResultRow> rows = compile_failure_rows(outcome, o_.shapes);
    if (!rows.empty()) failed_tiles_.emplace(outcome.tile, rows.front());
    rows.erase(std::remove_if(rows.begin(), rows.end(), [&](const ResultRow &r) { return passes_over(take, r.shape); }),
               rows.end());
    return rows;
  }

  // "compile failed" for each companion of `kernel` that NVRTC refused, with the shapes
  // among `rows` it fails; nothing for one whose shapes were all measured before.
  void say_companion_failures(const CompiledKernel &kernel, const std::vector<ResultRow> &rows) {
    for (const CompanionFailure &f : kernel.companion_failures) {
      std::string shapes;
      for (const ResultRow &r : rows)
        if (r.status == CandidateStatus::compile_failed && serving_kernel(kernel.tile, r.shape) == f.variant)
          shapes += (shapes.empty() ? "" : ", ") + r.shape.to_string();
      if (shapes.empty()) continue;
      say("compile failed: " + describe_tile(kernel.tile) + ": " +
          (f.variant == KernelVariant::any ? "its kernel of any operands" : "its edge kernel") + ", which runs " +
          shapes + ": " + log_excerpt(f.log.empty() ? f.error : f.log));
    }
  }

  // A compiled candidate, judged at the shapes of this take. One compiled before in this
  // run (taken again, at shapes an earlier batch left) was counted as compiled, pruned or
  // a survivor then, and counts as taken again now.
  std::vector<ResultRow> compiled(CompileOutcome &outcome, const Take &take) {
    const CompiledKernel &kernel = *outcome.kernel;
    const bool first = compiled_before_.insert(kernel.tile).second;
    CompiledJudgement j = judge_compiled(kernel, outcome.seconds, o_.shapes, o_.space.prune, target_.limits,
                                         [&](const Shape &s) { return passes_over(take, s); });
    // A companion that failed to compile fails the shapes it runs (judge_compiled); the
    // candidate fails as a whole only where that leaves it nothing else.
    const std::size_t failed_shapes = static_cast<std::size_t>(std::count_if(
        j.rows.begin(), j.rows.end(), [](const ResultRow &r) { return r.status == CandidateStatus::compile_failed; }));
    say_companion_failures(kernel, j.rows);
    if (first && failed_shapes > 0 && failed_shapes == j.rows.size()) {
      tally_.count(RunEvent::compile_failed);
      return std::move(j.rows);
    }
    tally_.count(first ? RunEvent::compiled : RunEvent::taken_again);
    for (std::size_t i = 0; i < failed_shapes; ++i) tally_.count(RunEvent::companion_failed);
    if (j.verdict.pruned) {
      const auto why = std::find_if(j.rows.begin(), j.rows.end(),
                                    [](const ResultRow &r) { return r.status == CandidateStatus::pruned; });
      if (why != j.rows.end()) failed_tiles_.emplace(kernel.tile, *why);
    }
    if (first) {
      if (j.verdict.pruned) {
        tally_.count(RunEvent::pruned_after_compile, j.verdict.reason);
      } else {
        tally_.count(RunEvent::survived);
        report_.survivors.push_back(j.survivor);
      }
    }
    if (j.verdict.pruned || !gpu_) return std::move(j.rows);
    // The shapes whose kernel failed to compile are recorded now, the rest when measured
    // (record_measured).
    std::vector<ResultRow> failed, to_measure;
    for (ResultRow &r : j.rows) (r.status == CandidateStatus::ok ? to_measure : failed).push_back(std::move(r));
    if (!to_measure.empty()) gpu_->submit(std::move(*outcome.kernel), j.occupancy, std::move(to_measure));
    return failed;
  }

  const TuneOptions &o_;
  const TuneCallbacks &cb_;
  const Clock::time_point start_;
  RunTally tally_;
  // Wakes this thread for a compiled or a measured candidate; outlives both sources.
  Wakeup wakeup_;
  std::unique_ptr<SearchStrategy> strategy_;
  Target target_;
  CompileOptions compile_options_;
  TuneReport report_;
  std::unique_ptr<RunDatabase> database_;
  std::unique_ptr<MeasureStage> gpu_;
  std::vector<PriorTiming> prior_;
  // Candidates compiled (or refused by NVRTC) in this run: one taken again counts once.
  std::set<SgemmTile> compiled_before_;
  // A row saying why, for each candidate NVRTC refused or that was pruned on its compiled
  // kernel in this run: the shapes the search never proposed it at are recorded with it.
  std::map<SgemmTile, ResultRow> failed_tiles_;
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
