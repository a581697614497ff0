#include "tuner/time/gemm_launch.h"

#include "tuner/gpu/cuda_check.h"

namespace sgemm_tune {

CandidateKernel::CandidateKernel(const CompiledKernel &compiled)
    : kernel_(LoadedKernel::load(compiled.cubin, compiled.lowered_name)),
      tile_(compiled.tile),
      threads_(sgemm_tune_kernels::tile_threads(compiled.tile)),
      smem_bytes_(sgemm_tune_kernels::tile_smem_bytes(compiled.tile)) {
  int device = 0;
  SGEMM_CUDA_CHECK(cudaGetDevice(&device));
  SGEMM_CUDA_CHECK(cudaKernelSetAttributeForDevice(kernel_.kernel(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                   smem_bytes_, device));
}

void CandidateKernel::launch(const GemmArgs &a, cudaStream_t stream) const {
  int M = static_cast<int>(a.shape.M), N = static_cast<int>(a.shape.N), K = static_cast<int>(a.shape.K);
  float alpha = a.alpha, beta = a.beta;
  const float *A = a.A, *B = a.B;
  float *C = a.C;
  void *params[] = {&M, &N, &K, &alpha, &A, &B, &beta, &C};
  const dim3 grid(static_cast<unsigned>(N / tile_.BN), static_cast<unsigned>(M / tile_.BM));
  SGEMM_CUDA_CHECK(cudaLaunchKernel(kernel_.function(), grid, dim3(threads_), params, smem_bytes_, stream));
}

int CandidateKernel::runtime_blocks_per_sm() const {
  int blocks = 0;
  SGEMM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel_.function(), threads_, smem_bytes_));
  return blocks;
}

void launch_cublas(cublasHandle_t handle, const GemmArgs &a) {
  // Row-major C = A B is column-major C^T = B^T A^T: swap the operands, keep the data.
  const int M = static_cast<int>(a.shape.M), N = static_cast<int>(a.shape.N), K = static_cast<int>(a.shape.K);
  SGEMM_CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &a.alpha, a.B, N, a.A, K, &a.beta, a.C, N));
}

}  // namespace sgemm_tune
