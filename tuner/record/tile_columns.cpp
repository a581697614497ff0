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

std::string tile_placeholders() {
  std::string out;
  for (std::size_t i = 0; i < kTileColumns.size(); ++i) {
    if (i) out += ", ";
    out += ":";
    out += kTileColumns[i];
  }
  return out;
}

std::string tile_column_match(std::string_view prefix) {
  std::string out;
  for (std::size_t i = 0; i < kTileColumns.size(); ++i) {
    if (i) out += " AND ";
    out += std::string(prefix) + std::string(kTileColumns[i]) + " = :" + std::string(kTileColumns[i]);
  }
  return out;
}

void bind_tile(Statement &st, const SgemmTile &tile) {
  for (std::size_t p = 0; p < kTileParameters.size(); ++p)
    st.bind((":" + std::string(kTileColumns[p])).c_str(), tile_parameter(tile, p));
}

SgemmTile read_tile(const Statement &st) {
  SgemmTile tile{};
  for (std::size_t p = 0; p < kTileParameters.size(); ++p)
    set_tile_parameter(tile, p, static_cast<int>(st.column_int(std::string(kTileColumns[p]))));
  return tile;
}

}  // namespace sgemm_tune
