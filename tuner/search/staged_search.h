// A search in two stages. The first times the survivors whose probed parameters have the
// probe values (e.g. BK = 16, STAGES = 2), and the space's references; it ranks their tile
// structures (the tile with the probed parameters left out) by mean percent of cuBLAS over
// the shapes, each at each shape by its best probe where a parameter is probed at several
// values. The second times every other value of the probed parameters, for the best
// `finalists` structures and each shape's own best `finalists_per_shape` only; the rest are
// recorded as pruned, reason "not_finalist".
//
// BLAS shapes wait for the finalists: most tiles time a BLAS shape on an edge kernel
// compiled beside the fast kernel (an edge kernel's body takes NVRTC about ten times as
// long), so where every probe tiles at least one plain shape, the first stage times the
// probes at the plain shapes only and ranks on those (each plain shape keeping its own
// `finalists_per_shape`), and the second brings the finalists' probes back for the BLAS
// shapes. Every BLAS shape waits, one that the fast kernel runs for some tiles too (an
// untransposed product they divide): those probes compile their fast kernel again, which
// is cheap. StrategySettings::blas_shapes_in_first_stage turns this off;
// StrategySettings::blas_probes names probes that time the BLAS shapes in the first stage
// as well, each BLAS shape then keeping its own `finalists_per_shape` among them
// (structures that run an edge kernel well but rank low on the plain shapes). References
// are timed at every shape in the first stage.
#pragma once

#include <set>

#include "tuner/prune/prune.h"
#include "tuner/search/search_strategy.h"

namespace sgemm_tune {

class StagedSearch : public SearchStrategy {
 public:
  // `references` are timed in the first stage whatever their probed parameters: they are
  // the yardstick the report ranks against. `shapes` are the run's.
  StagedSearch(StrategySettings settings, std::vector<SgemmTile> references, std::vector<Shape> shapes);

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
  // A probe that blas_probes names: it times the waiting BLAS shapes it tiles in the first
  // stage.
  bool is_blas_probe(const SgemmTile &tile) const;
  // The waiting BLAS shapes (deferred_shapes_) that `tile` tiles.
  std::vector<std::size_t> deferred_shapes_tiled(const SgemmTile &tile) const;
  std::vector<std::size_t> every_shape() const;  // 0, 1, ... of the run's shapes
  // The best `finalists` structures of the first stage, best first.
  std::vector<SgemmTile> rank_structures(const SearchHistory &history) const;

  StrategySettings settings_;
  std::vector<SgemmTile> references_;
  std::vector<Shape> shapes_;
  // Indices of shapes_, decided by start(): those the first stage times its probes at, and
  // those it leaves to the second (the BLAS shapes, when they wait; else none).
  std::vector<std::size_t> first_shapes_, deferred_shapes_;
  std::vector<SgemmTile> survivors_;
  std::vector<SgemmTile> finalists_;
  int stages_done_ = 0;
};

}  // namespace sgemm_tune
