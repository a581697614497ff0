// Candidates measured in this process, on a BenchSession: the tuner's own (--in-process)
// and, inside the measurement worker, the worker's.
#pragma once

#include <cstddef>
#include <vector>

#include "tuner/time/candidate_bench.h"

namespace sgemm_tune {

// Loads the candidate and verifies and times it at each shape. A candidate that does not
// load is launch_failed at every shape; a sticky CUDA error is thrown (CudaError): the
// context is gone, and only the process's owner can decide what that ends.
CandidateMeasurement measure_candidate(BenchSession &bench, const CompiledKernel &kernel,
                                       const std::vector<std::size_t> &shapes, const std::vector<double> &best_ms);

}  // namespace sgemm_tune
