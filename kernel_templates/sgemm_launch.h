// How the host launches the kernels of one tile configuration (sgemm_double_buffered, and
// the edge kernels sgemm_double_buffered_edges and sgemm_double_buffered_any, four kernels
// each, one per body, for other shapes and operands):
// its shared-memory limit, the persistent-block count of a stream-K tile, and the passes of
// tile_launch_plan with their grids, block and dynamic shared memory. One definition, used
// by the tuner for the launches it times and by the headers `sgemm-tune emit` generates for
// the launches they ship, so that what is timed and what ships cannot launch differently.
//
// Host code over the CUDA runtime API alone: g++ compiles it into the tuner, nvcc into a
// user's build (which links only the runtime). The kernel template does not include it, so
// NVRTC never sees it and the template's hash does not cover it.
//
// A kernel is named by the handle cudaLaunchKernel takes: the address of a kernel compiled
// into the program, or a cudaKernel_t from cudaLibraryGetKernel (a cubin), cast to
// const void *. Errors are returned, never thrown.
#pragma once

#include <cuda_runtime_api.h>

#include "sgemm_blas_call.h"
#include "sgemm_tile_rules.h"

namespace sgemm_tune_kernels {

// Dynamic shared memory every kernel may use without raising its limit.
enum : int { kDefaultDynamicSmemLimit = 48 * 1024 };

// Raises the dynamic shared-memory limit of a kernel loaded from a cubin to what the tile
// uses, on `device` (a library kernel's limit is set per device).
inline cudaError_t set_tile_smem_limit(cudaKernel_t kernel, const SgemmTile &t, int device) {
  return cudaKernelSetAttributeForDevice(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, tile_smem_bytes(t),
                                         device);
}

// The same for a kernel compiled into the program, named by its address: only a tile past
// the default limit needs it.
inline cudaError_t set_tile_smem_limit(const void *kernel, const SgemmTile &t) {
  const int smem = tile_smem_bytes(t);
  if (smem <= kDefaultDynamicSmemLimit) return cudaSuccess;
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
}

// Blocks of `kernel` one SM holds at once when launched with the tile's block and shared
// memory, as the runtime's occupancy calculator says (on the current device).
inline cudaError_t tile_blocks_per_sm(const void *kernel, const SgemmTile &t, int *blocks) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, tile_threads(t), tile_smem_bytes(t));
}

// The blocks of `kernel` that `device` holds at once (SMs x blocks per SM): the resident
// blocks over which a stream-K kernel spreads its work, and the slots the edge kernel's tail
// split fills. cudaErrorInvalidConfiguration when no SM can hold a block. The answer
// depends only on the kernel and the device: callers may keep it.
inline cudaError_t tile_resident_blocks(const void *kernel, const SgemmTile &t, int device, int *blocks) {
  *blocks = 0;
  int sms = 0, per_sm = 0;
  cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (e == cudaSuccess) e = tile_blocks_per_sm(kernel, t, &per_sm);
  if (e != cudaSuccess) return e;
  *blocks = sms * per_sm;
  return *blocks < 1 ? cudaErrorInvalidConfiguration : cudaSuccess;
}

// The persistent_blocks that tile_launch_plan takes: for a stream-K tile its resident
// blocks (tile_resident_blocks), for a data-parallel tile 0 (unused). (A grid larger than
// what is resident would still compute the right result, only without the balance stream-K
// is for.)
inline cudaError_t tile_persistent_blocks(const void *kernel, const SgemmTile &t, int device, int *blocks) {
  *blocks = 0;
  if (!t.STREAMK) return cudaSuccess;
  return tile_resident_blocks(kernel, t, device, blocks);
}

// The passes of `plan` for C = alpha A B + beta C by `kernel` (tile t, its shared-memory
// limit already raised): the prepare pass when the plan has one, then the compute pass,
// both with tile_threads(t) threads and tile_smem_bytes(t) of dynamic shared memory, on
// `stream`. Returns the error of the first launch that fails.
inline cudaError_t launch_passes(const void *kernel, const SgemmTile &t, const SgemmLaunchPlan &plan, int M, int N,
                                 int K, float alpha, const float *A, int lda, const float *B, int ldb, float beta,
                                 float *C, int ldc, cudaStream_t stream) {
  const dim3 block(static_cast<unsigned>(tile_threads(t)));
  const int smem = tile_smem_bytes(t);
  void *args[] = {&M, &N, &K, &alpha, &A, &lda, &B, &ldb, &beta, &C, &ldc};
  if (plan.prepare) {
    const cudaError_t e =
        cudaLaunchKernel(kernel, dim3(plan.prepare_grid_x, 1, kStreamKPreparePass), block, args, smem, stream);
    if (e != cudaSuccess) return e;
  }
  return cudaLaunchKernel(kernel, dim3(plan.grid_x, plan.grid_y, plan.grid_z), block, args, smem, stream);
}

// C = alpha A B + beta C by the fast kernel of tile t (sgemm_double_buffered), as
// tile_launch_plan says. Row-major A, B and C with rows lda, ldb and ldc floats apart (K, N
// and N when dense). The shape must fit the tile (shape_fits_tile), the operands 16-byte
// aligned with every leading dimension a multiple of 4; persistent_blocks comes from
// tile_persistent_blocks.
inline cudaError_t launch_tile(const void *kernel, const SgemmTile &t, int persistent_blocks, int M, int N, int K,
                               float alpha, const float *A, int lda, const float *B, int ldb, float beta, float *C,
                               int ldc, cudaStream_t stream) {
  return launch_passes(kernel, t, tile_launch_plan(t, M, N, persistent_blocks), M, N, K, alpha, A, lda, B, ldb, beta,
                       C, ldc, stream);
}

// The mangled name of the kernel of edge body `body` (kEdgeBody*), derived from `plain`,
// that of the plain body's kernel of the same tile (sgemm_double_buffered_edges or
// sgemm_double_buffered_any), which is what a cubin's record names: the four kernels
// differ only in their names, which Itanium mangling writes as a length and the letters.
// Written to `out` (`size` bytes, terminated); false, with `out` empty, when `plain` names
// neither kernel, `body` is none of kEdgeBody*, or the result does not fit.
inline bool edge_body_symbol(const char *plain, int body, char *out, int size) {
  // Each name with its length before it and the template arguments' "I" after it.
  const char *const kNames[] = {"27sgemm_double_buffered_edgesI", "25sgemm_double_buffered_anyI"};
  const char *suffix = edge_body_kernel_suffix(body);
  int suffix_length = 0;
  while (suffix[suffix_length] != '\0') ++suffix_length;
  if (size > 0) out[0] = '\0';
  if (body < 0 || body >= kEdgeBodies) return false;
  // Where the name starts in `plain`: after the namespace's part, before the template arguments.
  int at = -1, name_length = 0;
  const char *name = nullptr;
  for (const char *candidate : kNames) {
    int length = 0;
    while (candidate[length] != '\0') ++length;
    for (int i = 0; plain[i] != '\0' && at < 0; ++i) {
      int j = 0;
      while (j < length && plain[i + j] == candidate[j]) ++j;
      if (j == length) at = i;
    }
    if (at >= 0) {
      name = candidate;
      name_length = length;
      break;
    }
  }
  if (at < 0) return false;
  int n = 0;
  const auto put = [&](char c) {
    if (n < size - 1) out[n] = c;
    ++n;
  };
  for (int i = 0; i < at; ++i) put(plain[i]);
  // The new length: the old one's two digits plus the suffix (at most 47, two digits).
  const int length = (name[0] - '0') * 10 + (name[1] - '0') + suffix_length;
  put(static_cast<char>('0' + length / 10));
  put(static_cast<char>('0' + length % 10));
  for (int i = 2; i < name_length - 1; ++i) put(name[i]);
  for (int i = 0; i < suffix_length; ++i) put(suffix[i]);
  for (int i = at + name_length - 1; plain[i] != '\0'; ++i) put(plain[i]);
  if (n >= size) {
    if (size > 0) out[0] = '\0';
    return false;
  }
  out[n] = '\0';
  return true;
}

// A launch of `grid` blocks of `threads` threads and `smem` bytes of dynamic shared memory
// on `stream`, in clusters of `size` blocks along z (a split of K's clusters,
// kOperandClusterSplit): the configuration that cudaLaunchKernelExC and
// cudaOccupancyMaxActiveClusters take. It points at *attribute, which must outlive it.
inline cudaLaunchConfig_t z_cluster_config(dim3 grid, unsigned threads, int smem, cudaStream_t stream, unsigned size,
                                           cudaLaunchAttribute *attribute) {
  *attribute = cudaLaunchAttribute{};
  attribute->id = cudaLaunchAttributeClusterDimension;
  attribute->val.clusterDim.x = 1;
  attribute->val.clusterDim.y = 1;
  attribute->val.clusterDim.z = size;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = static_cast<size_t>(smem);
  config.stream = stream;
  config.attrs = attribute;
  config.numAttrs = 1;
  return config;
}

// C = alpha op(A) op(B) + beta C by an edge kernel of tile t (the body's kernel that
// edge_kernel_body names for these operands and leading dimensions, of
// sgemm_double_buffered_edges for a plain B, of sgemm_double_buffered_any for a transposed
// one), as tile_edges_launch_plan says: any shape
// shape_fits_tile_edges accepts (K = 0 too), operands as `operands` says (kOperand* in
// sgemm_tile_rules.h: the edge kernel all but kOperandTransB, the kernel of any operands all, kOperandTransB always), K split
// `splits` ways (1: not split). A split launch (but one as clusters, below), and a K = 0
// one, starts with the scale pass, which uses no shared memory. splits = kEdgeTailSplit runs the tail split instead
// (tile_edges_tail_split), whatever the tile's STREAMK, and kEdgeFillSplit the split
// tile_edges_fill_splits gives, both over `slots` resident blocks (tile_resident_blocks of
// this kernel; at least 1, else cudaErrorInvalidValue), the scale pass first when they
// split; the other launches ignore slots. With kOperandClusterSplit in `operands` (which
// only a caller whose GPU launches clusters and whose kernel takes the bit sets), a split
// that cluster_split_fits the kernel's own `clusters` (kernel_cluster_slots; the fill
// split's too) runs as clusters of its splits, with no scale pass; any other launch drops
// the bit, and so does one whose clusters the GPU refuses (cudaErrorInvalidClusterSize,
// cudaErrorLaunchOutOfResources), which runs after the scale pass instead.
inline cudaError_t launch_tile_edges(const void *kernel, const SgemmTile &t, int splits, int M, int N, int K,
                                     float alpha, const float *A, int lda, const float *B, int ldb, float beta,
                                     float *C, int ldc, int operands, cudaStream_t stream, int slots = 0,
                                     const ClusterSlots *clusters = nullptr) {
  const dim3 block(static_cast<unsigned>(tile_threads(t)));
  if (splits == kEdgeFillSplit) {
    if (K > 0 && slots < 1) return cudaErrorInvalidValue;
    splits = K > 0 ? tile_edges_fill_splits(t, M, N, K, slots) : 1;
  }
  SgemmLaunchPlan plan = tile_edges_launch_plan(t, M, N, K > 0 ? splits : 1);
  unsigned scale_x = plan.grid_x, scale_y = plan.grid_y;
  if (splits == kEdgeTailSplit && K > 0) {
    if (slots < 1) return cudaErrorInvalidValue;
    const TailSplit tail = tile_edges_tail_split(t, M, N, K, slots);
    if (tail.grid_x == 0) return cudaErrorInvalidValue;
    operands |= kOperandTailSplit | (tail.parts << kOperandPartsShift);
    plan = SgemmLaunchPlan{tail.parts > 1, tail.grid_x, 1u, 1u, 0u};
    scale_x = static_cast<unsigned>(tail.rest);
    scale_y = 1u;
  }
  const bool cluster =
      edge_launch_as_clusters(operands, K, splits, static_cast<long long>(plan.grid_x) * plan.grid_y, clusters);
  if (cluster) {
    int clustered = operands;
    void *args[] = {&M, &N, &K, &alpha, &A, &lda, &B, &ldb, &beta, &C, &ldc, &clustered};
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = z_cluster_config(dim3(plan.grid_x, plan.grid_y, plan.grid_z), block.x,
                                                       tile_smem_bytes(t), stream, plan.grid_z, &attribute);
    const cudaError_t e = cudaLaunchKernelExC(&config, kernel, args);
    if (e != cudaErrorInvalidClusterSize && e != cudaErrorLaunchOutOfResources) return e;
    cudaGetLastError();  // the refused launch's, which the scale pass's launches answer
  }
  operands &= ~kOperandClusterSplit;
  if (plan.prepare || K == 0) {
    int scale = operands | kOperandScalePass;
    void *args[] = {&M, &N, &K, &alpha, &A, &lda, &B, &ldb, &beta, &C, &ldc, &scale};
    const cudaError_t e = cudaLaunchKernel(kernel, dim3(scale_x, scale_y, 1), block, args, 0, stream);
    if (e != cudaSuccess || K == 0) return e;
  }
  void *args[] = {&M, &N, &K, &alpha, &A, &lda, &B, &ldb, &beta, &C, &ldc, &operands};
  return cudaLaunchKernel(kernel, dim3(plan.grid_x, plan.grid_y, plan.grid_z), block, args, tile_smem_bytes(t),
                          stream);
}

// Whether the current device launches clusters (kOperandClusterSplit), asked of the runtime.
inline bool device_launches_clusters(int device) {
  int v = 0;
  return cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, device) == cudaSuccess && v != 0;
}

// The ClusterSlots of `kernel` launched with blocks of `threads` threads and `smem` bytes of
// dynamic shared memory (its limit raised) on `device` (the current one, which launches
// clusters): for each split of 2 .. kMaxClusterSplit ways, the clusters of that many blocks
// it holds at once, as the runtime's occupancy calculator says. A size the calculator
// cannot answer holds none (its splits take the scale pass), and the first such error is
// returned, the others still asked.
inline cudaError_t launch_cluster_slots(const void *kernel, unsigned threads, int smem, int device,
                                        ClusterSlots *out) {
  *out = ClusterSlots{0, {}, true};
  cudaError_t first = cudaDeviceGetAttribute(&out->sms, cudaDevAttrMultiProcessorCount, device);
  for (int s = 2; s <= kMaxClusterSplit && out->sms > 0; ++s) {
    cudaLaunchAttribute attribute;
    const unsigned size = static_cast<unsigned>(s);
    const cudaLaunchConfig_t config = z_cluster_config(dim3(1, 1, size), threads, smem, nullptr, size, &attribute);
    const cudaError_t e = cudaOccupancyMaxActiveClusters(&out->at_once[s], kernel, &config);
    if (e != cudaSuccess) {
      out->at_once[s] = 0;
      if (first == cudaSuccess) first = e;
    }
  }
  return first;
}

// The same for an edge kernel of tile t, as launch_tile_edges launches it.
inline cudaError_t kernel_cluster_slots(const void *kernel, const SgemmTile &t, int device, ClusterSlots *out) {
  return launch_cluster_slots(kernel, static_cast<unsigned>(tile_threads(t)), tile_smem_bytes(t), device, out);
}

// Whether an edge launch of `splits` (as launch_tile_edges takes it) over K needs the
// kernel's resident blocks: the tail split and the fill split, where there is K to split.
constexpr bool edge_split_needs_slots(int splits, int K) {
  return (splits == kEdgeTailSplit || splits == kEdgeFillSplit) && K > 0;
}
static_assert(edge_split_needs_slots(kEdgeTailSplit, 1) && edge_split_needs_slots(kEdgeFillSplit, 1) &&
                  !edge_split_needs_slots(kEdgeTailSplit, 0) && !edge_split_needs_slots(1, 1) &&
                  !edge_split_needs_slots(4, 1),
              "only the tail and fill splits of a product with K read the resident blocks");

// launch_tile_edges for the launch edge_launch made: `kernel` must be the kernel of
// `e.body` (the tile's kernel for that body, its shared-memory limit raised), `slots` its
// resident blocks where edge_split_needs_slots says they are needed, `clusters` its
// kernel_cluster_slots where e.operands asks for clusters.
inline cudaError_t launch_tile_edges(const void *kernel, const SgemmTile &t, int splits, const EdgeLaunch &e,
                                     cudaStream_t stream, int slots, const ClusterSlots *clusters = nullptr) {
  const RowMajorGemm &g = e.g;
  return launch_tile_edges(kernel, t, splits, g.M, g.N, g.K, g.alpha, g.A, g.lda, g.B, g.ldb, g.beta, g.C, g.ldc,
                           e.operands, stream, slots, clusters);
}

}  // namespace sgemm_tune_kernels
