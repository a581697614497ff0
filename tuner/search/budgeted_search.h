// What the searches with a budget share: each batch is drawn from the survivors not yet
// proposed, and the search ends once `budget` candidates have come back timed. Only a
// time costs budget: a proposed candidate that fails to compile, is pruned on its
// registers or fails verification is replaced in the next batch.
#pragma once

#include <map>
#include <set>

#include "tuner/search/search_strategy.h"

namespace sgemm_tune {

class BudgetedSearch : public SearchStrategy {
 public:
  explicit BudgetedSearch(const StrategySettings &settings) : budget_(settings.budget), seed_(settings.seed) {}

  void start(std::vector<SgemmTile> survivors) final;
  SearchBatch next(const SearchHistory &history) final;
  NotProposed not_proposed() const final;

  // Distinct tiles with at least one time in `history`.
  static std::size_t timed_candidates(const SearchHistory &history);
  // Each timed tile's mean percent of cuBLAS over the shapes it was timed at.
  static std::map<SgemmTile, double> scores(const SearchHistory &history);

 protected:
  // `count` (at least 1, at most unproposed().size()) survivors not proposed before.
  virtual std::vector<SgemmTile> choose(const SearchHistory &history, std::size_t count) = 0;
  // How many to propose at once when the budget allows more: compilation runs a batch in parallel.
  virtual std::size_t batch_size() const = 0;
  // Called once the survivors are known.
  virtual void restart() {}

  const std::vector<SgemmTile> &survivors() const { return survivors_; }
  // In enumeration order.
  const std::vector<SgemmTile> &unproposed() const { return unproposed_; }
  std::size_t budget() const { return budget_; }
  std::uint64_t seed() const { return seed_; }

 private:
  std::size_t budget_;
  std::uint64_t seed_;
  std::vector<SgemmTile> survivors_;
  std::vector<SgemmTile> unproposed_;
  std::size_t batches_ = 0;
};

}  // namespace sgemm_tune
