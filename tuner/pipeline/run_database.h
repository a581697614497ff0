// A run's rows in the results database: the run's provenance and fingerprint, its results
// as they land, the machine code of its best, and what earlier runs under the same
// fingerprint measured (a resumed run does not measure it again).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tuner/compile/nvrtc_compiler.h"
#include "tuner/gpu/device_info.h"
#include "tuner/pipeline/tune.h"
#include "tuner/record/result_store.h"
#include "tuner/search/search_strategy.h"

namespace sgemm_tune {

class RunDatabase {
 public:
  // Opens (or creates) the database and begins the run. Throws UserError for a path that
  // cannot be written: opened before any GPU work, so that it fails at once.
  RunDatabase(const TuneOptions &options, const GpuInfo &gpu, const CompileOptions &compile_options);

  std::int64_t run_id() const { return run_id_; }
  void record(const std::vector<ResultRow> &rows);
  void keep_kernel(const SgemmTile &tile, const std::string &lowered_name, const std::string &cubin);
  // The result an earlier run under this fingerprint recorded; nullptr when none.
  const PriorResult *prior(const SgemmTile &tile, const Shape &shape) const;
  // Every verified time the database held before this run (prior_timings.h).
  std::vector<PriorTiming> prior_timings(const std::string &gpu_name, const std::vector<Shape> &shapes);
  // Marks the run finished; a failure to do so after a failed run is not reported, as the
  // run's own error matters more.
  void finish(bool succeeded, const std::string &counts_json);

 private:
  ResultStore store_;
  std::int64_t run_id_ = 0;
  std::string fingerprint_;
  std::map<std::pair<SgemmTile, Shape>, PriorResult> prior_;
};

}  // namespace sgemm_tune
