// Every survivor, in enumeration order, in one batch.
#pragma once

#include "tuner/search/search_strategy.h"

namespace sgemm_tune {

class ExhaustiveSearch : public SearchStrategy {
 public:
  std::string name() const override { return "exhaustive"; }
  void start(std::vector<SgemmTile> survivors) override;
  SearchBatch next(const SearchHistory &history) override;
  NotProposed not_proposed() const override;

 private:
  std::vector<SgemmTile> survivors_;
  bool proposed_ = false;
};

}  // namespace sgemm_tune
