// The environment a query compares recorded fingerprints with: this build's template and
// NVRTC, and the GPU in hand when there is one.
#pragma once

#include <string>
#include <vector>

#include "tuner/compile/kernel_source.h"
#include "tuner/query/best.h"

namespace sgemm_tune {

// Reads the GPU's name, compute capability and driver when a GPU is usable; leaves them
// empty otherwise.
CurrentEnvironment current_environment(const KernelSource &kernel, const std::vector<std::string> &extra_options,
                                       int device);

// Opens a database that must already exist (queries never create one). Throws UserError.
Database open_existing_database(const std::string &path);

}  // namespace sgemm_tune
