// A search in two stages. The first times the survivors whose probed parameters have the
// probe values (e.g. BK = 16, STAGES = 2), and the space's references; it ranks their tile
// structures (the tile with the probed parameters left out) by mean percent of cuBLAS over
// the shapes. The second times every other value of the probed parameters, for the best
// `finalists` structures and each shape's own best `finalists_per_shape` only; the rest are
// recorded as pruned, reason "not_finalist".
//
// BLAS shapes wait for the finalists: a BLAS shape is timed on a kernel compiled beside the
// fast kernel (an edge kernel's body takes NVRTC about ten times as long), so where the run
// has plain shapes too, the first stage times its probes at the plain shapes only and ranks
// on those, and the second stage brings the finalists' probes back for the BLAS shapes
// (StrategySettings::blas_shapes_in_first_stage turns this off). References are timed at
// every shape in the first stage.
#pragma once

#include <set>

#include "tuner/prune/prune.h"
#include "tuner/search/search_strategy.h"

namespace sgemm_tune {

class StagedSearch : public SearchStrategy {
 public:
  // `references` are timed in the first stage whatever their probed parameters: they are
  // the yardstick the report ranks against. `shapes` are the run's.
  StagedSearch(StrategySettings settings, std::vector<SgemmTile> references, const std::vector<Shape> &shapes);

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
  bool is_reference(const SgemmTile &tile) const;
  bool in_first_stage(const SgemmTile &tile) const;
  std::vector<std::size_t> every_shape() const;  // 0, 1, ... of the run's shapes
  // The best `finalists` structures of the first stage, best first.
  std::vector<SgemmTile> rank_structures(const SearchHistory &history) const;

  StrategySettings settings_;
  std::vector<SgemmTile> references_;
  // Indices of the run's shapes: those the first stage times its probes at, and those it
  // leaves to the second (the BLAS shapes, when they wait; else none).
  std::vector<std::size_t> first_shapes_, deferred_shapes_;
  std::vector<SgemmTile> survivors_;
  std::vector<SgemmTile> finalists_;
  int stages_done_ = 0;
};

}  // namespace sgemm_tune
