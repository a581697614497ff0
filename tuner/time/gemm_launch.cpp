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
  if (tile_.STREAMK) {
    int sms = 0;
    SGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    persistent_blocks_ = sms * runtime_blocks_per_sm();
    if (persistent_blocks_ < 1)
      throw CudaError("a stream-K kernel that no SM can hold (0 resident blocks) cannot be launched",
                      cudaErrorInvalidConfiguration);
  }
}

void CandidateKernel::launch(const GemmArgs &a, cudaStream_t stream) const {
  int M = static_cast<int>(a.shape.M), N = static_cast<int>(a.shape.N), K = static_cast<int>(a.shape.K);
  float alpha = a.alpha, beta = a.beta;
  const float *A = a.A, *B = a.B;
  float *C = a.C;
  void *params[] = {&M, &N, &K, &alpha, &A, &B, &beta, &C};
  const auto plan = sgemm_tune_kernels::tile_launch_plan(tile_, M, N, persistent_blocks_);
  if (plan.prepare)
    SGEMM_CUDA_CHECK(cudaLaunchKernel(kernel_.function(),
                                      dim3(plan.prepare_grid_x, 1, sgemm_tune_kernels::kStreamKPreparePass),
                                      dim3(threads_), params, smem_bytes_, stream));
  SGEMM_CUDA_CHECK(cudaLaunchKernel(kernel_.function(), dim3(plan.grid_x, plan.grid_y, plan.grid_z), dim3(threads_),
                                    params, smem_bytes_, stream));
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
