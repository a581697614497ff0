// What the database already knows for a learning search (model): every verified time it
// holds, on any GPU, at any shape, under any fingerprint, weighted by how much it says
// about the run in hand.
#pragma once

#include <string>
#include <vector>

#include "tuner/record/sqlite.h"
#include "tuner/search/search_strategy.h"
#include "tuner/space/shape.h"

namespace sgemm_tune {

// Weights: 1 for the same GPU and one of `shapes`; 0.5 for the same GPU at another shape
// or another GPU at one of `shapes`; 0.25 for the rest. Rows with a time or cuBLAS time
// that is not a positive finite number are left out (the database may come from elsewhere),
// and so are a BLAS shape's rows unless it is one of `shapes` (its time may be an edge
// kernel's, which says nothing of the tile elsewhere).
std::vector<PriorTiming> load_prior_timings(Database &db, const std::string &gpu_name, const std::vector<Shape> &shapes);

}  // namespace sgemm_tune
