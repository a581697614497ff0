// A search space: value lists per tile parameter, extra constraints, the problem shapes
// to tune and the timing, verification and pruning settings. Loaded from a JSON file
// (search_spaces/*.json; README.md documents the format) and validated field by field.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "tuner/space/constraint.h"
#include "tuner/space/settings.h"
#include "tuner/space/shape.h"
#include "tuner/space/tile.h"

namespace sgemm_tune {

inline constexpr int kSpaceFormatVersion = 1;

struct SearchSpace {
  std::string source;  // file name, or "<string>"; prefixes every error
  std::string name;
  std::string description;
  std::array<std::vector<int>, kTileParameters.size()> values;  // kTileParameters order
  std::vector<Constraint> constraints;
  std::vector<Shape> shapes;
  // Named configurations to point out in reports, e.g. the one a project ships today.
  std::vector<std::pair<std::string, SgemmTile>> references;
  TimingSettings timing;
  VerifySettings verify;
  PruneSettings prune;
  StrategySettings strategy;
  std::string content_hash;  // of the file's text: the run records which space it searched

  std::size_t size() const;  // product of the value-list lengths
};

// Both throw UserError naming the source, the field and what was expected.
SearchSpace parse_search_space(const std::string &json_text, const std::string &source = "<string>");
SearchSpace load_search_space(const std::string &path);

}  // namespace sgemm_tune
