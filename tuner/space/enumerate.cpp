#include "tuner/space/enumerate.h"

#include <algorithm>

namespace sgemm_tune {

Enumeration enumerate_candidates(const SearchSpace &space) {
  Enumeration out;
  std::array<std::vector<int>, kTileParameters.size()> values = space.values;
  for (auto &v : values) std::sort(v.begin(), v.end());
  for (const auto &v : values)
    if (v.empty()) return out;

  std::array<std::size_t, kTileParameters.size()> index{};
  while (true) {
    SgemmTile tile{};
    for (std::size_t p = 0; p < index.size(); ++p) set_tile_parameter(tile, p, values[p][index[p]]);
    ++out.enumerated;
    const bool kept = std::all_of(space.constraints.begin(), space.constraints.end(),
                                  [&](const Constraint &c) { return c.holds(tile); });
    if (kept)
      out.candidates.push_back(tile);
    else
      ++out.excluded_by_constraint;
    // Odometer increment, last parameter fastest.
    std::size_t p = index.size();
    while (p > 0) {
      --p;
      if (++index[p] < values[p].size()) break;
      index[p] = 0;
      if (p == 0) return out;
    }
  }
}

}  // namespace sgemm_tune
