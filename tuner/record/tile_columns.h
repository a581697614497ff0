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
// "?5, ?6, ..." starting at ?first
std::string tile_placeholders(int first);
// "bm = ?2 AND bn = ?3 AND ..." starting at ?first
std::string tile_column_match(int first);

// Binds the tile's parameters to ?first, ?first + 1, ... (the order of the fragments above).
void bind_tile(Statement &st, int first, const SgemmTile &tile);
// The tile from result columns first, first + 1, ... (a tile_column_list in a SELECT).
SgemmTile read_tile(Statement &st, int first);

}  // namespace sgemm_tune
