// A search that learns which survivors to time. Before each batch it predicts every
// survivor not yet proposed, in percent of cuBLAS, and proposes the best predicted, with a
// quarter of each batch drawn at random so that it keeps looking elsewhere:
// - from this run's timings: the distance-weighted mean of the nearest timed tiles on the
//   parameter grid (tile_grid.h);
// - from what the database held before the run (SearchHistory::prior: other shapes, other
//   GPUs, older fingerprints) for the same tile, mapped onto this run's scale by a line
//   fitted where both are known.
// Without either, its first batch is random. Dependency-free and deterministic for a seed.
#pragma once

#include "tuner/search/budgeted_search.h"
#include "tuner/search/random_source.h"
#include "tuner/search/tile_grid.h"

namespace sgemm_tune {

class ModelSearch : public BudgetedSearch {
 public:
  explicit ModelSearch(const StrategySettings &settings) : BudgetedSearch(settings), random_(settings.seed) {}
  std::string name() const override { return "model"; }

  // Predicted percent of cuBLAS of each survivor not yet proposed (in that order); NaN
  // where nothing is known. Public for the tests.
  std::vector<double> predict(const SearchHistory &history) const;

 protected:
  void restart() override;
  std::vector<SgemmTile> choose(const SearchHistory &history, std::size_t count) override;
  std::size_t batch_size() const override;

 private:
  RandomSource random_;
  TileGrid grid_;
};

}  // namespace sgemm_tune
