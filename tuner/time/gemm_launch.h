// Launching one GEMM, by a candidate kernel or by cuBLAS, on dense operands: row-major for
// a plain shape, as its layout and ops say for a BLAS shape (shape_route.h).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "sgemm_launch.h"
#include "tuner/compile/nvrtc_compiler.h"
#include "tuner/gpu/cuda_handles.h"
#include "tuner/space/shape.h"

#include <vector>

namespace sgemm_tune {

struct GemmArgs {
  Shape shape;
  float alpha = 1.0f;
  const float *A = nullptr;  // op(A) M x K
  const float *B = nullptr;  // op(B) K x N
  float beta = 0.0f;
  float *C = nullptr;        // M x N
};

// A compiled candidate loaded onto the current GPU, its shared-memory limit raised,
// launched as the generated header launches it (kernel_templates/sgemm_launch.h).
class CandidateKernel {
 public:
  // Throws CudaError when a cubin does not load.
  explicit CandidateKernel(const CompiledKernel &compiled);
  // The tile must serve the shape (tile_serves_shape), by a kernel the compiled candidate
  // carries (a BLAS shape's edge kernels are its companions). A stream-K tile launches two
  // passes (launch_tile). Throws CudaError; std::logic_error for a kernel it lacks.
  void launch(const GemmArgs &args, cudaStream_t stream) const;
  // What the runtime says about residency, for checking the occupancy model.
  int runtime_blocks_per_sm() const;

 private:
  // An edge kernel or kernel of any operands, loaded with its shared-memory limit raised:
  // its kernel per body (kEdgeBody*; null for a body the run did not compile), the blocks
  // the GPU holds of each (the slots its tail split fills) and, where the GPU launches
  // clusters, the clusters of each size it holds at once (what a split as clusters is held
  // to, kernel_cluster_slots).
  struct EdgeKernel {
    KernelVariant variant;
    LoadedKernel cubin;
    cudaKernel_t bodies[sgemm_tune_kernels::kEdgeBodies];
    int resident_blocks[sgemm_tune_kernels::kEdgeBodies];
    sgemm_tune_kernels::ClusterSlots clusters[sgemm_tune_kernels::kEdgeBodies];
  };

  LoadedKernel kernel_;
  SgemmTile tile_;
  int persistent_blocks_ = 0;  // tile_persistent_blocks: the grid of a stream-K launch
  bool clusters_ = false;      // whether the GPU launches clusters (a split of K may run as
                               // clusters, cluster_split_fits)
  std::vector<EdgeKernel> edge_kernels_;
};

// C = alpha op(A) op(B) + beta C as the shape's layout says, by cublasSgemm.
void launch_cublas(cublasHandle_t handle, const GemmArgs &args);

}  // namespace sgemm_tune
