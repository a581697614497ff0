#include "tuner/search/tile_grid.h"

#include <algorithm>
#include <cstdlib>

namespace sgemm_tune {

TileGrid::TileGrid(const std::vector<SgemmTile> &survivors) {
  for (std::size_t p = 0; p < kTileParameters.size(); ++p) {
    for (const SgemmTile &t : survivors) values_[p].push_back(tile_parameter(t, p));
    std::sort(values_[p].begin(), values_[p].end());
    values_[p].erase(std::unique(values_[p].begin(), values_[p].end()), values_[p].end());
  }
}

GridPoint TileGrid::point(const SgemmTile &tile) const {
  GridPoint g{};
  for (std::size_t p = 0; p < kTileParameters.size(); ++p) {
    const auto &v = values_[p];
    if (v.empty()) continue;
    const int x = tile_parameter(tile, p);
    std::size_t best = 0;
    for (std::size_t i = 1; i < v.size(); ++i)
      if (std::abs(v[i] - x) < std::abs(v[best] - x)) best = i;
    g[p] = static_cast<int>(best);
  }
  return g;
}

SgemmTile TileGrid::tile(const GridPoint &point) const {
  SgemmTile t{};
  for (std::size_t p = 0; p < kTileParameters.size(); ++p)
    if (!values_[p].empty())
      set_tile_parameter(t, p, values_[p][static_cast<std::size_t>(std::clamp(point[p], 0, steps(p) - 1))]);
  return t;
}

std::array<double, kTileParameters.size()> TileGrid::unit(const SgemmTile &tile) const {
  const GridPoint g = point(tile);
  std::array<double, kTileParameters.size()> u{};
  for (std::size_t p = 0; p < kTileParameters.size(); ++p)
    if (steps(p) > 1) u[p] = static_cast<double>(g[p]) / (steps(p) - 1);
  return u;
}

}  // namespace sgemm_tune
