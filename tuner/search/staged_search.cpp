#include "tuner/search/staged_search.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "tuner/time/shape_route.h"

namespace sgemm_tune {

StagedSearch::StagedSearch(StrategySettings settings, std::vector<SgemmTile> references,
                           std::vector<Shape> shapes)
    : settings_(std::move(settings)), references_(std::move(references)), shapes_(std::move(shapes)) {}

void StagedSearch::start(std::vector<SgemmTile> survivors) {
  survivors_ = std::move(survivors);
  finalists_.clear();
  stages_done_ = 0;
  first_shapes_.clear();
  deferred_shapes_.clear();
  for (std::size_t i = 0; i < shapes_.size(); ++i) (shapes_[i].blas ? deferred_shapes_ : first_shapes_).push_back(i);
  // The BLAS shapes wait only where every probe can be ranked without them: with nothing
  // plain to rank on, a probe that tiles none of the plain shapes (ranked on the plain
  // shapes alone, it would never count for its structure, a reference's neither), or when
  // the space asks for it, the first stage times every shape. Each probe counts on its own,
  // one of several values of a parameter too (BK 16 and 32, say): where one of them tiles
  // no plain shape, every shape is timed in the first stage, though a sibling ranks the
  // structure.
  const bool every_probe_ranked = std::all_of(survivors_.begin(), survivors_.end(), [&](const SgemmTile &tile) {
    return !is_probe(tile) || std::any_of(first_shapes_.begin(), first_shapes_.end(), [&](std::size_t s) {
             return tile_serves_shape(tile, shapes_[s]);
           });
  });
  if (first_shapes_.empty() || !every_probe_ranked || settings_.blas_shapes_in_first_stage) {
    first_shapes_ = every_shape();
    deferred_shapes_.clear();
  }
}

SearchBatch StagedSearch::next(const SearchHistory &history) {
  switch (stages_done_++) {
    case 0: return first_stage();
    case 1: return second_stage(history);
    default: return {};
  }
}

NotProposed StagedSearch::not_proposed() const {
  return {kPruneNotFinalist, "staged search: its tile structure was not among the " + std::to_string(settings_.finalists) +
                            " best of the first stage"};
}

SearchBatch StagedSearch::first_stage() const {
  SearchBatch batch{{}, {}, "stage 1 of 2", false};
  for (const SgemmTile &tile : survivors_) {
    if (!in_first_stage(tile)) continue;
    batch.tiles.push_back(tile);
    if (deferred_shapes_.empty()) continue;
    // A reference is the yardstick at every shape; the probes rank on the plain shapes,
    // those the space names in blas_probes at the BLAS shapes they tile too.
    if (is_reference(tile)) {
      batch.shapes.push_back(every_shape());
      continue;
    }
    std::vector<std::size_t> shapes = first_shapes_;
    if (is_blas_probe(tile)) {
      const std::vector<std::size_t> tiled = deferred_shapes_tiled(tile);
      shapes.insert(shapes.end(), tiled.begin(), tiled.end());
      std::sort(shapes.begin(), shapes.end());
    }
    batch.shapes.push_back(std::move(shapes));
  }
  return batch;
}

std::vector<std::size_t> StagedSearch::deferred_shapes_tiled(const SgemmTile &tile) const {
  std::vector<std::size_t> tiled;
  for (const std::size_t s : deferred_shapes_)
    if (tile_serves_shape(tile, shapes_[s])) tiled.push_back(s);
  return tiled;
}

bool StagedSearch::is_blas_probe(const SgemmTile &tile) const {
  return settings_.blas_probes && is_probe(tile) && settings_.blas_probes->holds(tile);
}

SearchBatch StagedSearch::second_stage(const SearchHistory &history) {
  finalists_ = rank_structures(history);
  const std::set<SgemmTile> chosen(finalists_.begin(), finalists_.end());
  SearchBatch batch{{}, {}, "stage 2 of 2", true};
  const bool waited = !deferred_shapes_.empty();
  const std::vector<std::size_t> all = every_shape();
  for (const SgemmTile &tile : survivors_) {
    if (!chosen.count(structure_of(tile))) continue;
    if (!in_first_stage(tile)) {
      batch.tiles.push_back(tile);
      if (waited) batch.shapes.push_back(all);
    } else if (waited && !is_reference(tile) && !is_blas_probe(tile)) {
      // A finalist's probe, back for the shapes it waited for (those it tiles); one that
      // blas_probes names timed them in the first stage.
      std::vector<std::size_t> tiled = deferred_shapes_tiled(tile);
      if (tiled.empty()) continue;
      batch.tiles.push_back(tile);
      batch.shapes.push_back(std::move(tiled));
    }
  }
  return batch;
}

std::vector<SgemmTile> StagedSearch::rank_structures(const SearchHistory &history) const {
  // Summed shape by shape, in the shapes' order: the same sums, and so the same ties, in
  // every run over the same timings; over the first stage's shapes only (a reference that
  // is also a probe has times at the BLAS shapes, which the other probes wait for). The
  // BLAS shapes that blas_probes timed in the first stage keep their own finalists among
  // those probes, but stay out of the mean, which the other probes have no time at.
  std::vector<bool> ranked_at(history.shape_count, false), early_at(history.shape_count, false);
  for (const std::size_t s : first_shapes_)
    if (s < ranked_at.size()) ranked_at[s] = true;
  if (settings_.blas_probes)
    for (const std::size_t s : deferred_shapes_)
      if (s < early_at.size()) early_at[s] = true;
  // Each structure at each shape by its best probe (several where a parameter is probed at
  // several values), then the score: the mean over the first stage's shapes.
  std::vector<std::map<SgemmTile, double>> by_shape(history.shape_count);
  for (const TimedResult &r : history.timed) {
    // A reference off the probe values would score its structure by a variant the other
    // structures are not timed at.
    if (!is_probe(r.tile) || r.shape >= ranked_at.size()) continue;
    // At a BLAS shape, only the times of probes that blas_probes names: a reference that
    // is a probe, or a row of the run this one resumes, may hold another's.
    if (!ranked_at[r.shape] && !(early_at[r.shape] && is_blas_probe(r.tile))) continue;
    const auto [at, added] = by_shape[r.shape].emplace(structure_of(r.tile), r.percent_of_cublas);
    if (!added && r.percent_of_cublas > at->second) at->second = r.percent_of_cublas;
  }
  std::map<SgemmTile, double> score;
  for (std::size_t s = 0; s < by_shape.size(); ++s)
    if (ranked_at[s])
      for (const auto &[structure, percent] : by_shape[s])
        score[structure] += percent / static_cast<double>(first_shapes_.size());
  // Best first; ties in structure order.
  const auto ranked = [](const std::map<SgemmTile, double> &values) {
    std::vector<std::pair<double, SgemmTile>> order;
    for (const auto &[structure, value] : values) order.emplace_back(-value, structure);
    std::sort(order.begin(), order.end());
    return order;
  };
  std::vector<SgemmTile> best;
  const auto order = ranked(score);
  for (std::size_t i = 0; i < order.size() && best.size() < static_cast<std::size_t>(settings_.finalists); ++i)
    best.push_back(order[i].second);
  for (const auto &values : by_shape) {
    const auto shape_order = ranked(values);
    int taken = 0;
    for (std::size_t i = 0; i < shape_order.size() && taken < settings_.finalists_per_shape; ++i, ++taken)
      if (std::find(best.begin(), best.end(), shape_order[i].second) == best.end())
        best.push_back(shape_order[i].second);
  }
  return best;
}

SgemmTile StagedSearch::structure_of(SgemmTile tile) const {
  for (const auto &[index, value] : settings_.probe) set_tile_parameter(tile, index, 0);
  return tile;
}

bool StagedSearch::is_probe(const SgemmTile &tile) const {
  // Every probed parameter at one of its probe values (a parameter may be listed with several).
  using Entry = std::pair<std::size_t, int>;
  return std::all_of(settings_.probe.begin(), settings_.probe.end(), [&](const Entry &probed) {
    return std::any_of(settings_.probe.begin(), settings_.probe.end(), [&](const Entry &value) {
      return value.first == probed.first && tile_parameter(tile, value.first) == value.second;
    });
  });
}

std::vector<std::size_t> StagedSearch::every_shape() const {
  std::vector<std::size_t> all(shapes_.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  return all;
}

bool StagedSearch::is_reference(const SgemmTile &tile) const {
  return std::find(references_.begin(), references_.end(), tile) != references_.end();
}

bool StagedSearch::in_first_stage(const SgemmTile &tile) const { return is_probe(tile) || is_reference(tile); }

}  // namespace sgemm_tune
