#include "tuner/search/budgeted_search.h"

#include <algorithm>
#include <stdexcept>

#include "tuner/prune/prune.h"

namespace sgemm_tune {

void BudgetedSearch::start(std::vector<SgemmTile> survivors) {
  survivors_ = std::move(survivors);
  unproposed_ = survivors_;
  batches_ = 0;
  restart();
}

std::size_t BudgetedSearch::timed_candidates(const SearchHistory &history) {
  std::set<SgemmTile> tiles;
  for (const TimedResult &r : history.timed) tiles.insert(r.tile);
  return tiles.size();
}

std::map<SgemmTile, double> BudgetedSearch::scores(const SearchHistory &history) {
  std::map<SgemmTile, std::pair<double, int>> sums;
  for (const TimedResult &r : history.timed) {
    auto &[sum, n] = sums[r.tile];
    sum += r.percent_of_cublas;
    ++n;
  }
  std::map<SgemmTile, double> out;
  for (const auto &[tile, s] : sums) out.emplace(tile, s.first / s.second);
  return out;
}

SearchBatch BudgetedSearch::next(const SearchHistory &history) {
  if (unproposed_.empty()) return {};
  std::size_t wanted = unproposed_.size();
  if (budget_ > 0) {
    const std::size_t timed = timed_candidates(history);
    if (timed >= budget_) return {};
    wanted = std::min(wanted, budget_ - timed);
  }
  wanted = std::min(wanted, std::max<std::size_t>(1, batch_size()));
  std::vector<SgemmTile> batch = choose(history, wanted);
  if (batch.empty() || batch.size() > wanted)
    throw std::logic_error(name() + " search chose " + std::to_string(batch.size()) + " candidates, asked for " +
                           std::to_string(wanted));
  const std::set<SgemmTile> chosen(batch.begin(), batch.end());
  const std::size_t before = unproposed_.size();
  unproposed_.erase(std::remove_if(unproposed_.begin(), unproposed_.end(),
                                   [&](const SgemmTile &t) { return chosen.count(t) > 0; }),
                    unproposed_.end());
  if (before - unproposed_.size() != batch.size())
    throw std::logic_error(name() + " search chose a candidate twice or one that is not a survivor");
  return SearchBatch{std::move(batch), {}, name() + " batch " + std::to_string(++batches_), false};
}

NotProposed BudgetedSearch::not_proposed() const {
  return {kPruneNotProposed, name() + " search: not proposed within the budget of " + std::to_string(budget_) +
                                 " candidates timed"};
}

}  // namespace sgemm_tune
