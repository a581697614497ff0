// Enumeration: the cartesian product of a space's value lists, less what its extra
// constraints exclude. Validity against the kernel's rules is judged later, so that an
// invalid candidate is recorded with the rule it breaks.
#pragma once

#include <cstddef>
#include <vector>

#include "tuner/space/search_space.h"

namespace sgemm_tune {

struct Enumeration {
  std::vector<SgemmTile> candidates;  // in lexicographic order of kTileParameters
  std::size_t enumerated = 0;         // size of the product
  std::size_t excluded_by_constraint = 0;
};

Enumeration enumerate_candidates(const SearchSpace &space);

}  // namespace sgemm_tune
