// The GPUs' part of a run: a bench on each GPU of the run (in this process or in a
// measurement worker), each verifying and timing whichever survivor is next while the
// others time theirs; cuBLAS's times on each GPU; and the rankings of what was timed
// (shape_rankings.h). Its methods belong to the thread that made it; only the benches run
// on threads of their own, one per GPU (dispatcher.h).
#pragma once

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tuner/pipeline/dispatcher.h"
#include "tuner/pipeline/run_database.h"
#include "tuner/pipeline/run_tally.h"
#include "tuner/pipeline/shape_rankings.h"
#include "tuner/pipeline/tune.h"
#include "tuner/prune/occupancy.h"
#include "tuner/search/proposal_ledger.h"
#include "tuner/search/search_strategy.h"
#include "tuner/time/candidate_bench.h"

namespace sgemm_tune {

// A survivor back from a GPU: its rows filled in, ready to record.
struct MeasuredCandidate {
  std::vector<ResultRow> rows;
  // The candidate broke this process's CUDA context (in-process measurement only): its
  // rows say so; record them, then rethrow this, as nothing more can run there.
  std::exception_ptr fatal;
};

class MeasureStage {
 public:
  // Sets up every shape's workspace on each GPU and times cuBLAS there, the GPUs at once.
  // `on_measured` is called on a GPU's thread whenever a survivor is ready to take.
  MeasureStage(const TuneOptions &options, const std::vector<GpuInfo> &gpus, RunTally &tally,
               std::function<void(const std::string &)> say, std::function<void()> on_measured);
  ~MeasureStage();

  // What was measured under this fingerprint before (an interrupted or earlier run) is not
  // measured again: it joins this run's ranking. Returns the tiles that still have a shape
  // of their take to measure.
  std::vector<ProposalLedger::Take> reuse_prior(const std::vector<ProposalLedger::Take> &takes,
                                                const RunDatabase &database);
  // Queues a survivor, to be verified and timed at the shapes of its rows by the first GPU
  // that is free. Early stopping compares it with the best times known when it starts.
  void submit(CompiledKernel kernel, const Occupancy &occupancy, std::vector<ResultRow> rows);
  // A survivor measured since, or nullopt when none is ready.
  std::optional<MeasuredCandidate> take_measured();
  // Waits for the next survivor to be measured; only while busy().
  MeasuredCandidate wait_measured();
  // Survivors submitted and not yet taken.
  bool busy() const;
  // Drops the survivors no GPU has started on (a run that stops); returns how many.
  std::size_t cancel_waiting();
  // Every time so far, shape by shape, in the order taken.
  SearchHistory history() const;
  // cuBLAS again at each shape on each GPU (clock drift shows), the rankings sorted, and
  // the machine code of the fastest few kept in `database`. Only when nothing is busy.
  void finish(RunDatabase &database);

  std::vector<ShapeReport> &shapes() { return rankings_->shapes(); }
  std::vector<DeviceReport> devices() const;
  double gpu_seconds() const { return gpu_seconds_; }  // summed over the GPUs
  double cublas_seconds() const { return cublas_seconds_; }

 private:
  // One GPU and its bench. Only the GPU's thread touches the bench once measuring starts.
  struct Lane {
    GpuInfo gpu;
    std::unique_ptr<CandidateBench> bench;
    std::size_t candidates = 0;
    double gpu_seconds = 0;
    std::vector<double> cublas_end_ms;
  };
  // A survivor on its way to a GPU and back.
  struct Job {
    CompiledKernel kernel;
    Occupancy occupancy;
    std::vector<ResultRow> rows;
    std::vector<std::size_t> shape_index;  // of each row
    // Filled in on the GPU's thread.
    std::size_t lane = 0;
    CandidateMeasurement measured;
    std::exception_ptr fatal;
    double seconds = 0;
  };

  // On the GPU's thread: measures the job on lane `lane`.
  std::shared_ptr<Job> run(std::shared_ptr<Job> job, std::size_t lane);
  MeasuredCandidate settle(Job &job);
  // One shape's measurement into its row, its counts and the ranking.
  void take(const Job &job, std::size_t k, ResultRow &row);
  void take_prior(const SgemmTile &tile, std::size_t shape, const PriorResult &prior);

  const std::vector<Shape> &shape_list_;
  RunTally &tally_;
  std::function<void(const std::string &)> say_;
  std::vector<Lane> lanes_;
  std::unique_ptr<ShapeRankings> rankings_;
  double gpu_seconds_ = 0, cublas_seconds_ = 0;
  // Last: destroyed first, so that no GPU thread outlives the lanes it measures on.
  std::unique_ptr<Dispatcher<std::shared_ptr<Job>>> dispatcher_;
};

}  // namespace sgemm_tune
