// A tile as JSON, by parameter name: {"BM": 128, "BN": 64, ..., "STREAMK": 0}. Reports print
// it; the measurement worker's messages carry it.
#pragma once

#include <nlohmann/json.hpp>

#include "tuner/space/tile.h"

namespace sgemm_tune {

nlohmann::json tile_to_json(const SgemmTile &tile);

// The reverse, checked: an object with every parameter as an integer and nothing else, that
// keeps the kernel's validity rules. Throws std::invalid_argument naming the parameter or
// the rule it breaks.
SgemmTile tile_from_json(const nlohmann::json &j);

}  // namespace sgemm_tune
