// The tile's columns in the results and kernels tables, and the SQL fragments that name
// them, so that a statement lists them in one place (kTileParameters order).
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "tuner/record/sqlite.h"
#include "tuner/space/tile.h"

namespace sgemm_tune {

inline constexpr std::array<std::string_view, kTileParameters.size()> kTileColumns = {
    "bm", "bn", "bk", "wm", "wn", "wniter", "tm", "tn", "stages", "prefetch", "stream_k"};

// "x.bm, x.bn, ..." for prefix "x."
std::string tile_column_list(std::string_view prefix = "");
// ":bm, :bn, ...": the named parameters bind_tile binds
std::string tile_placeholders();
// "x.bm = :bm AND x.bn = :bn AND ..." for prefix "x."
std::string tile_column_match(std::string_view prefix = "");

// Binds the tile's parameters to :bm, :bn, ...
void bind_tile(Statement &st, const SgemmTile &tile);
// The tile from the columns named bm, bn, ... of a SELECT (a tile_column_list).
SgemmTile read_tile(const Statement &st);

}  // namespace sgemm_tune
