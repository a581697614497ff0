// Small kernels the tuner runs around the candidates: filling inputs with random data,
// poisoning outputs, and reducing the difference between two results on the GPU so that
// verification copies three numbers back instead of a whole matrix.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace sgemm_tune {

// Uniform in [-1, 1), a pure function of (seed, index): reproducible and never zero-filled.
void fill_uniform(float *data, std::size_t count, std::uint64_t seed, cudaStream_t stream);
void fill_value(float *data, std::size_t count, float value, cudaStream_t stream);

struct ErrorNorms {
  double diff_squared = 0;  // sum (c - ref)^2 over finite elements
  double ref_squared = 0;   // sum ref^2
  unsigned long long nonfinite = 0;  // elements of c that are NaN or infinite
  double relative() const;  // sqrt(diff/ref); infinity when any element is not finite
};

// Synchronizes `stream` to read the result. `scratch` is device memory from
// error_norms_scratch_bytes().
ErrorNorms error_norms(const float *c, const float *ref, std::size_t count, void *scratch, cudaStream_t stream);
std::size_t error_norms_scratch_bytes();

}  // namespace sgemm_tune
