// Checks for the CUDA runtime and cuBLAS: a failed call becomes an exception that names
// the call, the error and where it was made.
#pragma once

#include <stdexcept>
#include <string>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

namespace sgemm_tune {

class CudaError : public std::runtime_error {
 public:
  CudaError(const std::string &what, cudaError_t code) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const { return code_; }
  // After these the CUDA context is unusable for the rest of the process.
  bool sticky() const;

 private:
  cudaError_t code_;
};

[[noreturn]] void throw_cuda_error(cudaError_t code, const char *call, const char *file, int line);
[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char *call, const char *file, int line);

}  // namespace sgemm_tune

#define SGEMM_CUDA_CHECK(call)                                                              \
  do {                                                                                      \
    const cudaError_t sgemm_err_ = (call);                                                  \
    if (sgemm_err_ != cudaSuccess) ::sgemm_tune::throw_cuda_error(sgemm_err_, #call, __FILE__, __LINE__); \
  } while (0)

#define SGEMM_CUBLAS_CHECK(call)                                                            \
  do {                                                                                      \
    const cublasStatus_t sgemm_st_ = (call);                                                \
    if (sgemm_st_ != CUBLAS_STATUS_SUCCESS)                                                 \
      ::sgemm_tune::throw_cublas_error(sgemm_st_, #call, __FILE__, __LINE__);               \
  } while (0)
