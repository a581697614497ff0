// The survivors in an order drawn from the seed, as many as the budget allows: the
// baseline any other search must beat.
#pragma once

#include "tuner/search/budgeted_search.h"

namespace sgemm_tune {

class RandomSearch : public BudgetedSearch {
 public:
  using BudgetedSearch::BudgetedSearch;
  std::string name() const override { return "random"; }

 protected:
  void restart() override;
  std::vector<SgemmTile> choose(const SearchHistory &history, std::size_t count) override;
  // All that the budget allows at once; candidates that come back untimed are replaced next.
  std::size_t batch_size() const override { return unproposed().size(); }

 private:
  std::vector<SgemmTile> order_;  // the survivors, shuffled
  std::size_t taken_ = 0;
};

}  // namespace sgemm_tune
