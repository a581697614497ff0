// Verification of a candidate against cuBLAS on fresh random operands, in both BLAS
// modes: beta == 0 with C poisoned with NaN beforehand (every element must be written,
// and C must not be read), and beta != 0 from a random C (C must be read and scaled).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <cublas_v2.h>

#include "tuner/space/settings.h"
#include "tuner/time/workspace.h"

namespace sgemm_tune {

struct Verification {
  bool passed = false;
  double error_beta0 = 0;  // ||C - C_cublas||_F / ||C_cublas||_F, beta == 0
  double error_beta = 0;   // the same with beta = VerifySettings::beta
  unsigned long long nonfinite = 0;
  std::string detail;      // why it failed
};

// Uses operand set 0 of the workspace, which it refills from `seed`.
Verification verify_against_cublas(const std::function<void(const GemmArgs &)> &candidate, ShapeWorkspace &ws,
                                   cublasHandle_t cublas, cudaStream_t stream, std::uint64_t seed,
                                   const VerifySettings &settings);

}  // namespace sgemm_tune
