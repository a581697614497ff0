// The survivors as points of a grid: each parameter's distinct values among them, in
// increasing order, and each tile as its index into each list. Distances and neighbours
// of the searches that move through the space (genetic, model) are taken on this grid,
// so that 64 -> 128 is one step, as 2 -> 3 stages is.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <vector>

#include "tuner/space/tile.h"

namespace sgemm_tune {

using GridPoint = std::array<int, kTileParameters.size()>;

class TileGrid {
 public:
  TileGrid() = default;
  explicit TileGrid(const std::vector<SgemmTile> &survivors);

  GridPoint point(const SgemmTile &tile) const;  // a tile off the grid: the nearest value of each parameter
  SgemmTile tile(const GridPoint &point) const;
  int steps(std::size_t parameter) const { return static_cast<int>(values_[parameter].size()); }
  // Each coordinate scaled to [0, 1] (0 where a parameter has one value).
  std::array<double, kTileParameters.size()> unit(const SgemmTile &tile) const;

 private:
  std::array<std::vector<int>, kTileParameters.size()> values_;
};

}  // namespace sgemm_tune
