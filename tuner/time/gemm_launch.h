// Launching one GEMM, by a candidate kernel or by cuBLAS, on row-major operands.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "sgemm_launch.h"
#include "tuner/compile/nvrtc_compiler.h"
#include "tuner/gpu/cuda_handles.h"
#include "tuner/space/shape.h"

namespace sgemm_tune {

struct GemmArgs {
  Shape shape;
  float alpha = 1.0f;
  const float *A = nullptr;  // M x K
  const float *B = nullptr;  // K x N
  float beta = 0.0f;
  float *C = nullptr;        // M x N
};

// A compiled candidate loaded onto the current GPU, its shared-memory limit raised,
// launched as the generated header launches it (kernel_templates/sgemm_launch.h).
class CandidateKernel {
 public:
  // Throws CudaError when the cubin does not load.
  explicit CandidateKernel(const CompiledKernel &compiled);
  // The shape must fit the tile (shape_fits_tile). A stream-K tile launches two passes
  // (launch_tile). Throws CudaError.
  void launch(const GemmArgs &args, cudaStream_t stream) const;
  // What the runtime says about residency, for checking the occupancy model.
  int runtime_blocks_per_sm() const;

 private:
  LoadedKernel kernel_;
  SgemmTile tile_;
  int persistent_blocks_ = 0;  // tile_persistent_blocks: the grid of a stream-K launch
};

// C = alpha A B + beta C in row-major, through cublasSgemm's column-major interface.
void launch_cublas(cublasHandle_t handle, const GemmArgs &args);

}  // namespace sgemm_tune
