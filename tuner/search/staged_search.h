// A search in two stages. The first times the survivors whose probed parameters have the
// probe values (e.g. BK = 16, STAGES = 2), and the space's references; it ranks their tile
// structures (the tile with the probed parameters left out) by mean percent of cuBLAS over
// the shapes. The second times every other value of the probed parameters, for the best
// `finalists` structures and each shape's own best `finalists_per_shape` only; the rest are
// recorded as pruned, reason "not_finalist".
#pragma once

#include <set>

#include "tuner/prune/prune.h"
#include "tuner/search/search_strategy.h"

namespace sgemm_tune {

class StagedSearch : public SearchStrategy {
 public:
  // `references` are timed in the first stage whatever their probed parameters: they are
  // the yardstick the report ranks against.
  StagedSearch(StrategySettings settings, std::vector<SgemmTile> references);

  std::string name() const override { return "staged"; }
  void start(std::vector<SgemmTile> survivors) override;
  SearchBatch next(const SearchHistory &history) override;
  NotProposed not_proposed() const override;
  std::vector<SgemmTile> finalists() const override { return finalists_; }

 private:
  SearchBatch first_stage() const;
  SearchBatch second_stage(const SearchHistory &history);
  // The tile with its probed parameters blanked: what the first stage ranks.
  SgemmTile structure_of(SgemmTile tile) const;
  bool is_probe(const SgemmTile &tile) const;
  bool in_first_stage(const SgemmTile &tile) const;
  // The best `finalists` structures of the first stage, best first.
  std::vector<SgemmTile> rank_structures(const SearchHistory &history) const;

  StrategySettings settings_;
  std::vector<SgemmTile> references_;
  std::vector<SgemmTile> survivors_;
  std::vector<SgemmTile> finalists_;
  int stages_done_ = 0;
};

}  // namespace sgemm_tune
