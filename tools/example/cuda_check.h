// Checks of CUDA runtime and cuBLAS calls for small programs: a failed call prints itself,
// where it is and why, and ends the program with exit code 2.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                         \
  do {                                                                                                      \
    const cudaError_t e_ = (call);                                                                          \
    if (e_ != cudaSuccess) {                                                                                \
      std::fprintf(stderr, "%s failed at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(2);                                                                                         \
    }                                                                                                       \
  } while (0)
#define CHECK_CUBLAS(call)                                                                         \
  do {                                                                                             \
    const cublasStatus_t s_ = (call);                                                              \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                             \
      std::fprintf(stderr, "%s failed at %s:%d: cuBLAS status %d\n", #call, __FILE__, __LINE__, int(s_)); \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)
