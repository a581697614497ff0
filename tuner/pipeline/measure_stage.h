// The GPU's part of a run: the bench that verifies and times candidates (in this process
// or in a measurement worker), cuBLAS's times, and what has been timed so far at each
// shape: the rankings, the best times that early stopping compares with, and the machine
// code of the candidates that could still win.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tuner/pipeline/run_database.h"
#include "tuner/pipeline/run_tally.h"
#include "tuner/pipeline/tune.h"
#include "tuner/prune/occupancy.h"
#include "tuner/search/search_strategy.h"
#include "tuner/time/candidate_bench.h"

namespace sgemm_tune {

class MeasureStage {
 public:
  // Sets up every shape's workspace and times cuBLAS on each.
  MeasureStage(const TuneOptions &options, const GpuInfo &gpu, RunTally &tally,
               std::function<void(const std::string &)> say);

  // What was measured under this fingerprint before (an interrupted or earlier run) is not
  // measured again: it joins this run's ranking. Returns the tiles that still have a shape
  // to measure.
  std::vector<SgemmTile> reuse_prior(const std::vector<SgemmTile> &tiles, const RunDatabase &database);
  // Verifies and times a survivor at the shapes of its rows, and fills them in. A CUDA
  // error that breaks this process's context (in-process measurement only) goes into the
  // rows too, and is then rethrown: nothing more can run.
  void measure(const CompiledKernel &kernel, const Occupancy &occupancy, std::vector<ResultRow> &rows);
  // Every time so far, shape by shape, in the order taken.
  SearchHistory history() const;
  // cuBLAS again at each shape (clock drift shows), the rankings sorted, and the machine
  // code of the fastest few kept in `database`.
  void finish(RunDatabase &database);

  std::vector<ShapeReport> &shapes() { return shapes_; }
  double gpu_seconds() const { return gpu_seconds_; }
  double cublas_seconds() const { return cublas_seconds_; }

 private:
  // One shape's measurement into its row, its counts and the ranking.
  void take(const CompiledKernel &kernel, const Occupancy &occupancy, std::size_t shape, const Measurement &m,
            ResultRow &row);
  void rank(const RankedResult &result, std::size_t shape);
  void take_prior(const SgemmTile &tile, std::size_t shape, const PriorResult &prior);

  const std::vector<Shape> &shape_list_;
  RunTally &tally_;
  std::function<void(const std::string &)> say_;
  std::unique_ptr<CandidateBench> bench_;
  std::vector<ShapeReport> shapes_;
  std::vector<double> best_ms_;  // per shape; 0: nothing timed yet
  // (lowered name, cubin) of candidates that were not stopped early: they could win.
  std::map<SgemmTile, std::pair<std::string, std::string>> contender_code_;
  double gpu_seconds_ = 0, cublas_seconds_ = 0;
};

}  // namespace sgemm_tune
