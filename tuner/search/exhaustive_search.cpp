#include "tuner/search/exhaustive_search.h"

namespace sgemm_tune {

void ExhaustiveSearch::start(std::vector<SgemmTile> survivors) {
  survivors_ = std::move(survivors);
  proposed_ = false;
}

SearchBatch ExhaustiveSearch::next(const SearchHistory &) {
  if (proposed_) return {};
  proposed_ = true;
  return SearchBatch{survivors_, {}, "", true};
}

NotProposed ExhaustiveSearch::not_proposed() const {
  // Unreachable: every survivor is in the one batch.
  return {"not_proposed", "exhaustive search: not proposed"};
}

}  // namespace sgemm_tune
