// What a run has timed so far at each shape: the rankings, the best times that early
// stopping compares with, and the machine code of the candidates that could still win.
// Written by the run's main thread as results are taken; the best times are also read by
// the GPUs' threads, as each measurement starts.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "tuner/compile/nvrtc_compiler.h"
#include "tuner/pipeline/run_database.h"
#include "tuner/pipeline/tune.h"
#include "tuner/search/search_strategy.h"

namespace sgemm_tune {

class ShapeRankings {
 public:
  // One per shape of the run, with cuBLAS's times and nothing ranked yet.
  explicit ShapeRankings(std::vector<ShapeReport> shapes);

  void rank(const RankedResult &result, std::size_t shape);
  // The code of a candidate that was not stopped early: it could win.
  void keep_code(const CompiledKernel &kernel);
  // The best time so far at each of `shapes` (0: none yet). Any thread.
  std::vector<double> best_ms(const std::vector<std::size_t> &shapes) const;
  // Every time so far, shape by shape, in the order ranked.
  SearchHistory history() const;
  // Sorts each ranking, fastest first, and keeps the machine code of the fastest few in
  // `database` (sgemm-tune emit ships the best's).
  void finish(RunDatabase &database);

  std::vector<ShapeReport> &shapes() { return shapes_; }

 private:
  std::vector<ShapeReport> shapes_;
  mutable std::mutex best_mutex_;
  std::vector<double> best_ms_;
  // (lowered name, cubin) by tile.
  std::map<SgemmTile, std::pair<std::string, std::string>> contender_code_;
};

}  // namespace sgemm_tune
