#include "tuner/space/tile_json.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace sgemm_tune {

nlohmann::json tile_to_json(const SgemmTile &tile) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t p = 0; p < kTileParameters.size(); ++p) j[std::string(kTileParameters[p])] = tile_parameter(tile, p);
  return j;
}

SgemmTile tile_from_json(const nlohmann::json &j) {
  if (!j.is_object()) throw std::invalid_argument(std::string("a tile must be an object, got ") + j.type_name());
  for (const auto &item : j.items())
    if (std::find(kTileParameters.begin(), kTileParameters.end(), item.key()) == kTileParameters.end())
      throw std::invalid_argument("unknown tile parameter \"" + item.key() + "\"");
  SgemmTile tile{};
  for (std::size_t p = 0; p < kTileParameters.size(); ++p) {
    const std::string name(kTileParameters[p]);
    const auto it = j.find(name);
    if (it == j.end()) throw std::invalid_argument("tile parameter " + name + " is missing");
    if (!it->is_number_integer() || *it < std::numeric_limits<int>::min() || *it > std::numeric_limits<int>::max())
      throw std::invalid_argument("tile parameter " + name + " must be an integer, got " + it->dump());
    set_tile_parameter(tile, p, it->get<int>());
  }
  const TileRule rule = sgemm_tune_kernels::check_tile(tile);
  if (rule != TileRule::ok)
    throw std::invalid_argument("tile " + describe_tile(tile) + " breaks the kernel's rule " +
                                std::string(tile_rule_code(rule)) + ": " + sgemm_tune_kernels::tile_rule_text(rule));
  return tile;
}

}  // namespace sgemm_tune
