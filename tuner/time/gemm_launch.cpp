#include "tuner/time/gemm_launch.h"

#include <stdexcept>

#include "tuner/gpu/cuda_check.h"
#include "tuner/time/shape_route.h"

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
  clusters_ = sgemm_tune_kernels::device_launches_clusters(device);
  for (const CompanionKernel &c : compiled.companions) {
    // The cubin holds the bodies the run's shapes take (c.bodies), each named from the plain
    // body's symbol as the generated header's run-time names it, and is loaded by the first
    // of them; the others stay null, and a launch that needs one is refused below.
    if (!is_edge_body_set(c.bodies)) throw std::logic_error("a companion of no body: " + c.lowered_name);
    const auto symbol_of = [&c](int body) {
      char symbol[512];
      if (!sgemm_tune_kernels::edge_body_symbol(c.lowered_name.c_str(), body, symbol, sizeof symbol))
        throw std::logic_error("not the name of an edge kernel's or kernel of any operands' plain body: " +
                               c.lowered_name);
      return std::string(symbol);
    };
    EdgeKernel edge{c.variant, LoadedKernel::load(c.cubin, symbol_of(first_edge_body(c.bodies))), {}, {}, {}};
    for (int body = 0; body < sgemm_tune_kernels::kEdgeBodies; ++body) {
      if (!(c.bodies & edge_body_bit(body))) continue;
      edge.bodies[body] = edge.cubin.other(symbol_of(body));
      SGEMM_CUDA_CHECK(sgemm_tune_kernels::set_tile_smem_limit(edge.bodies[body], tile_, device));
      SGEMM_CUDA_CHECK(sgemm_tune_kernels::tile_resident_blocks(reinterpret_cast<const void *>(edge.bodies[body]),
                                                                tile_, device, &edge.resident_blocks[body]));
      // A size the runtime cannot answer holds no clusters: its splits take the scale pass,
      // as the generated header's launch would (kernel_clusters in sgemm_tuned_runtime.cuh).
      if (clusters_ && sgemm_tune_kernels::kernel_cluster_slots(reinterpret_cast<const void *>(edge.bodies[body]),
                                                                tile_, device, &edge.clusters[body]) != cudaSuccess)
        cudaGetLastError();
    }
    edge_kernels_.push_back(std::move(edge));
  }
}

void CandidateKernel::launch(const GemmArgs &a, cudaStream_t stream) const {
  const sgemm_tune_kernels::RowMajorGemm g = shape_product(a.shape, a.alpha, a.A, a.B, a.beta, a.C);
  const KernelVariant variant = serving_kernel(tile_, a.shape);
  if (variant == KernelVariant::exact) {
    SGEMM_CUDA_CHECK(sgemm_tune_kernels::launch_tile(kernel_.function(), tile_, persistent_blocks_, g.M, g.N, g.K,
                                                     g.alpha, g.A, g.lda, g.B, g.ldb, g.beta, g.C, g.ldc, stream));
    return;
  }
  const EdgeKernel *edge = nullptr;
  for (const EdgeKernel &k : edge_kernels_)
    if (k.variant == variant) edge = &k;
  if (!edge) throw std::logic_error("shape " + a.shape.to_string() + " needs an edge kernel the candidate lacks");
  // As sgemm_tuned launches it for an exact match (launch_edge_bodies): the product and body
  // edge_launch picks, the edge kernel's tail split (which the kernel of any operands lacks:
  // it splits K to fill the GPU instead, as clusters where it splits few enough ways), over
  // that kernel's resident blocks.
  sgemm_tune_kernels::EdgeLaunch e = sgemm_tune_kernels::edge_launch(tile_, g);
  if (!edge->bodies[e.body])
    throw std::logic_error("shape " + a.shape.to_string() + " needs edge body " + std::to_string(e.body) +
                           ", which the candidate was not compiled with");
  if (clusters_) e.operands |= sgemm_tune_kernels::kOperandClusterSplit;
  const int splits = sgemm_tune_kernels::tile_kernel_splits(variant == KernelVariant::edges
                                                                ? sgemm_tune_kernels::TileKernel::edges
                                                                : sgemm_tune_kernels::TileKernel::any);
  SGEMM_CUDA_CHECK(sgemm_tune_kernels::launch_tile_edges(reinterpret_cast<const void *>(edge->bodies[e.body]), tile_,
                                                         splits, e, stream, edge->resident_blocks[e.body],
                                                         clusters_ ? &edge->clusters[e.body] : nullptr));
}

int CandidateKernel::runtime_blocks_per_sm() const {
  int blocks = 0;
  SGEMM_CUDA_CHECK(sgemm_tune_kernels::tile_blocks_per_sm(kernel_.function(), tile_, &blocks));
  return blocks;
}

void launch_cublas(cublasHandle_t handle, const GemmArgs &a) {
  const int M = static_cast<int>(a.shape.M), N = static_cast<int>(a.shape.N), K = static_cast<int>(a.shape.K);
  const DenseLeadingDims ld = dense_leading_dims(a.shape);
  const cublasOperation_t op_a = a.shape.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_b = a.shape.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  if (a.shape.col_major) {
    SGEMM_CUBLAS_CHECK(
        cublasSgemm(handle, op_a, op_b, M, N, K, &a.alpha, a.A, ld.lda, a.B, ld.ldb, &a.beta, a.C, ld.ldc));
    return;
  }
  // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: swap the operands, keep the data.
  SGEMM_CUBLAS_CHECK(
      cublasSgemm(handle, op_b, op_a, N, M, K, &a.alpha, a.B, ld.ldb, a.A, ld.lda, &a.beta, a.C, ld.ldc));
}

}  // namespace sgemm_tune
