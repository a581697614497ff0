#include "tuner/record/tile_columns.h"

namespace sgemm_tune {

std::string tile_column_list(std::string_view prefix) {
  std::string out;
  for (std::size_t i = 0; i < kTileColumns.size(); ++i) {
    if (i) out += ", ";
    out += prefix;
    out += kTileColumns[i];
  }
  return out;
}

std::string tile_placeholders(int first) {
  std::string out;
  for (std::size_t i = 0; i < kTileColumns.size(); ++i) {
    if (i) out += ", ";
    out += "?" + std::to_string(first + static_cast<int>(i));
  }
  return out;
}

std::string tile_column_match(int first) {
  std::string out;
  for (std::size_t i = 0; i < kTileColumns.size(); ++i) {
    if (i) out += " AND ";
    out += std::string(kTileColumns[i]) + " = ?" + std::to_string(first + static_cast<int>(i));
  }
  return out;
}

void bind_tile(Statement &st, int first, const SgemmTile &tile) {
  for (std::size_t p = 0; p < kTileParameters.size(); ++p) st.bind(first + static_cast<int>(p), tile_parameter(tile, p));
}

SgemmTile read_tile(Statement &st, int first) {
  SgemmTile tile{};
  for (std::size_t p = 0; p < kTileParameters.size(); ++p)
    set_tile_parameter(tile, p, static_cast<int>(st.column_int(first + static_cast<int>(p))));
  return tile;
}

}  // namespace sgemm_tune
