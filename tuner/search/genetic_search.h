// A genetic search over the parameter grid. The first generation is drawn at random; each
// later one is bred from the fastest tiles timed so far: two parents, each the better of
// two drawn from the fastest `population`, each parameter taken from one of them, and
// now and then one parameter moved a step along its values. A child that is not a
// survivor, or was proposed before, is drawn again; after enough tries the survivor not
// yet proposed that is nearest its first parent takes its place, so that every
// generation is full and the search always moves.
#pragma once

#include <set>

#include "tuner/search/budgeted_search.h"
#include "tuner/search/random_source.h"
#include "tuner/search/tile_grid.h"

namespace sgemm_tune {

class GeneticSearch : public BudgetedSearch {
 public:
  explicit GeneticSearch(const StrategySettings &settings) : BudgetedSearch(settings), random_(settings.seed) {}
  std::string name() const override { return "genetic"; }

 protected:
  void restart() override;
  std::vector<SgemmTile> choose(const SearchHistory &history, std::size_t count) override;
  std::size_t batch_size() const override;

 private:
  SgemmTile breed(const std::vector<SgemmTile> &elite, const std::set<SgemmTile> &open);
  SgemmTile nearest_open(const SgemmTile &to, const std::set<SgemmTile> &open) const;

  RandomSource random_;
  TileGrid grid_;
};

}  // namespace sgemm_tune
