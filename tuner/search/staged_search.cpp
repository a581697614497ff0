#include "tuner/search/staged_search.h"

#include <algorithm>
#include <map>

namespace sgemm_tune {

StagedSearch::StagedSearch(StrategySettings settings, std::vector<SgemmTile> references)
    : settings_(std::move(settings)), references_(std::move(references)) {}

void StagedSearch::start(std::vector<SgemmTile> survivors) {
  survivors_ = std::move(survivors);
  finalists_.clear();
  stages_done_ = 0;
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
  SearchBatch batch{{}, "stage 1 of 2", false};
  for (const SgemmTile &tile : survivors_)
    if (in_first_stage(tile)) batch.tiles.push_back(tile);
  return batch;
}

SearchBatch StagedSearch::second_stage(const SearchHistory &history) {
  finalists_ = rank_structures(history);
  const std::set<SgemmTile> chosen(finalists_.begin(), finalists_.end());
  SearchBatch batch{{}, "stage 2 of 2", true};
  for (const SgemmTile &tile : survivors_)
    if (!in_first_stage(tile) && chosen.count(structure_of(tile))) batch.tiles.push_back(tile);
  return batch;
}

std::vector<SgemmTile> StagedSearch::rank_structures(const SearchHistory &history) const {
  // Summed shape by shape, in the history's order: the same sums, and so the same ties, in
  // every run over the same timings.
  std::map<SgemmTile, double> score;
  std::vector<std::map<SgemmTile, double>> by_shape(history.shape_count);
  for (const TimedResult &r : history.timed) {
    if (!is_probe(r.tile)) continue;  // a reference off the probe values would count its structure twice
    score[structure_of(r.tile)] += r.percent_of_cublas / static_cast<double>(history.shape_count);
    if (r.shape < by_shape.size()) by_shape[r.shape][structure_of(r.tile)] = r.percent_of_cublas;
  }
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
  for (const auto &[index, value] : settings_.probe)
    if (tile_parameter(tile, index) != value) return false;
  return true;
}

bool StagedSearch::in_first_stage(const SgemmTile &tile) const {
  return is_probe(tile) || std::find(references_.begin(), references_.end(), tile) != references_.end();
}

}  // namespace sgemm_tune
