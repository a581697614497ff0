#include "tuner/search/random_search.h"

#include "tuner/search/random_source.h"

namespace sgemm_tune {

void RandomSearch::restart() {
  order_ = survivors();
  RandomSource random(seed());
  random.shuffle(order_);
  taken_ = 0;
}

std::vector<SgemmTile> RandomSearch::choose(const SearchHistory &, std::size_t count) {
  std::vector<SgemmTile> out(order_.begin() + static_cast<std::ptrdiff_t>(taken_),
                             order_.begin() + static_cast<std::ptrdiff_t>(taken_ + count));
  taken_ += count;
  return out;
}

}  // namespace sgemm_tune
