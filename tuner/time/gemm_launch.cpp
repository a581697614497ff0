#include "tuner/time/gemm_launch.h"

#include "tuner/gpu/cuda_check.h"

namespace sgemm_tune {

CandidateKernel::CandidateKernel(const CompiledKernel &compiled)
    : kernel_(LoadedKernel::load(compiled.cubin, compiled.lowered_name)), tile_(compiled.tile) {
  int device = 0;
  SGEMM_CUDA_CHECK(cudaGetDevice(&device));
  SGEMM_CUDA_CHECK(sgemm_tune_kernels::set_tile_smem_limit(kernel_.kernel(), tile_, device));
  const cudaError_t e =
      sgemm_tune_kernels::tile_persistent_blocks(kernel_.function(), tile_, device, &persistent_blocks_);
  if (e == cudaErrorInvalidConfiguration)
    throw CudaError("a stream-K kernel that no SM can hold (0 resident blocks) cannot be launched", e);
  SGEMM_CUDA_CHECK(e);
}

void CandidateKernel::launch(const GemmArgs &a, cudaStream_t stream) const {
  // Dense row-major operands: rows K, N and N floats apart.
  const int M = static_cast<int>(a.shape.M), N = static_cast<int>(a.shape.N), K = static_cast<int>(a.shape.K);
  SGEMM_CUDA_CHECK(sgemm_tune_kernels::launch_tile(kernel_.function(), tile_, persistent_blocks_, M, N, K, a.alpha,
                                                   a.A, K, a.B, N, a.beta, a.C, N, stream));
}

int CandidateKernel::runtime_blocks_per_sm() const {
  int blocks = 0;
  SGEMM_CUDA_CHECK(sgemm_tune_kernels::tile_blocks_per_sm(kernel_.function(), tile_, &blocks));
  return blocks;
}

void launch_cublas(cublasHandle_t handle, const GemmArgs &a) {
  // Row-major C = A B is column-major C^T = B^T A^T: swap the operands, keep the data.
  const int M = static_cast<int>(a.shape.M), N = static_cast<int>(a.shape.N), K = static_cast<int>(a.shape.K);
  SGEMM_CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &a.alpha, a.B, N, a.A, K, &a.beta, a.C, N));
}

}  // namespace sgemm_tune
