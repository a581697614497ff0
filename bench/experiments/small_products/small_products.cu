// Where a small product's GPU time goes, on the edge kernel the header runs it on. Replayed as
// CUDA graphs on the H100 (session 37, bench/results/2026-12-05-h100-edge-shapes, call 4),
// small products took 2-5x cuBLAS's GPU time (80x1588x76: 8.4 us at best against 4.0). Three
// modes, each timing rounds of 200 calls back to back from the host ("stream") and the same
// 200 calls replayed as one CUDA graph ("graph"), median of 7 alternating rounds, us a call:
//
//   small_products pdl    whether programmatic dependent launch (PDL) shortens them: for
//       each product (row-major, dense, aligned rows: the edge kernel's plain body) and tile,
//         template  the template's own edge kernel (sgemm_double_buffered_edges), a plain launch;
//         wait      the same body in a kernel that first waits on the grid before it
//                   (griddepcontrol.wait) and lets the next grid launch (launch_dependents),
//                   launched plainly: what the two instructions cost alone;
//         pdl       that kernel launched with cudaLaunchAttributeProgrammaticStreamSerialization:
//                   the next call's blocks may start while this one finishes, and wait there;
//         no-wait   the control: launch_dependents without the wait, launched as pdl, which
//                   lets a call read C before the call before it has written it;
//         cublas    cublasSgemm on the same operands.
//       The timed calls run at beta = 0.5. Then each kernel's C after a round of calls at beta
//       = 1 from the same C is checked against the template's, bit for bit (the same body):
//       at beta = 1 each call adds alpha A B to C, so a call that read a stale C loses one
//       addition for good, where at beta = 0.5 the differences halve every call and C reaches
//       the same fixed point either way. The control should differ; if it does not, the check
//       could not have seen a race on that product. (Calls 6 and 9 ran an earlier form that
//       checked at beta = 0.5, which cannot see one, and had no control.)
//   small_products floor  the fixed cost of a call: one tile of the template's edge kernel
//       (64 x 64 x 32, its fastest tile for those products) over K = 32 to 1024, at beta 0 and
//       0.5, beside an empty kernel of the same block and shared memory (the launch alone) and
//       cuBLAS on the same products: the time at K -> 0 less the empty kernel's is what the
//       kernel costs before and after its main loop; the slope, a K step's cost.
//   small_products stages  whether a deeper pipeline or a smaller tile shortens them: the
//       template's edge kernel at 64 x 64 x 32 and 64 x 64 x 16 with 2, 3 and 4 stages, and at
//       32 x 64 x 16, 32 x 64 x 32 and 32 x 32 x 32 (2 warps, 2 warps, 1 warp), on the products
//       of the pdl mode and one wave of 64 x 64 tiles, at beta 0, beside cuBLAS. (The floor
//       mode found each K step of a lone 64 x 64 x 32 tile with 2 stages costing about 1 us:
//       the latency of the next stage's copies, which a deeper pipeline would overlap, or the
//       step's own work at one warp per scheduler, which a smaller tile would cut.)
//   small_products split  whether less work per thread, K split over more blocks, closes the
//       gap: the stages mode's smaller tiles all kept 32 or 64 outputs a thread, so each
//       block's chain of FFMAs stayed as long; cuBLAS's kernel for these products keeps 16
//       (32 x 32 x 8, 2 warps) and splits K up to 4 ways. Tiles of 32, 16 and 8 outputs a
//       thread (2 to 8 warps), each unsplit and split 2, 4 and 8 ways (as far as K's slices
//       go), a split both as clusters of its splits (one launch, at any number of blocks:
//       the header takes clusters only up to one block per SM) and after the scale pass (two
//       launches), through sgemm_launch.h's launch_tile_edges, at beta 0, beside cuBLAS.
//       Every way's C is checked against cuBLAS's at beta 0 over a NaN-filled C and at beta
//       0.5 (relative Frobenius error under 1e-4); a way that fails is marked WRONG.
//   small_products waves  whether a split as clusters runs in two waves where the GPU cannot
//       hold all its clusters at once: a cluster's blocks run on one GPC, so at one block per
//       SM a GPU of 132 SMs in GPCs of 14-18 holds fewer than 132 / s clusters of s. Prints
//       the clusters of 2-8 blocks the GPU holds at once at one block per SM (the runtime's
//       device_cluster_slots) and those of the 128 x 128 x 16 tile's edge kernel (8 warps, one
//       block per SM: kernel_cluster_slots), then times (128 t) x 128 x 1024 on that tile,
//       split 4 and 6 ways, for t from 3 under the kernel's clusters at once to 3 over (no
//       more blocks than SMs): whole, split as clusters (forced, whatever fits; "refused"
//       where the GPU ran it after the scale pass instead) and after the scale pass, at beta
//       0, each checked against cuBLAS. Predicted: the clusters' time doubles where t passes
//       the kernel's clusters at once, the scale pass's does not.
//       (On the H100 of session 37 such splits took 2.2-3.0x their predicted time, every other
//       split as clusters at most 1.9x: bench/results/2026-12-05-h100-small-splits, RUN.md.)
//
// Build (nvcc needs no GPU):
//   nvcc -std=c++17 -O2 -arch=sm_90 -Ikernel_templates -Itools/bench_shapes \
//        bench/experiments/small_products/small_products.cu -lcublas -o small_products
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "bench_common.cuh"  // tools/bench_shapes: CHECK, fill, events_ms, median, capture_round, graph_round_ms
#include "sgemm_double_buffered.cuh"
#include "sgemm_launch.h"
#include "sgemm_tuned_runtime.cuh"  // device_cluster_slots

namespace k = sgemm_tune_kernels;
using bench_shapes::events_ms;
using bench_shapes::median;

// The plain edge body behind a wait on the grid before it: nothing of A, B or C is touched
// before the previous grid's writes are visible.
template <SGEMM_TUNE_TILE_PARAMS>
__global__ void __launch_bounds__(k::tile_threads(k::SgemmTile{SGEMM_TUNE_TILE_ARGS}))
    pdl_edges(int M, int N, int K, float alpha, const float *__restrict__ A, int lda, const float *__restrict__ B,
              int ldb, float beta, float *__restrict__ C, int ldc, int operands) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
  k::detail::edge_body<k::detail::kPlainEdges, k::kEdgeBodyPlain, SGEMM_TUNE_TILE_ARGS>(M, N, K, alpha, A, lda, B, ldb,
                                                                                      beta, C, ldc, operands);
}

// The control: the next grid may launch at once, and this one does not wait for the one
// before it, so a call can read C before the previous call has written it.
template <SGEMM_TUNE_TILE_PARAMS>
__global__ void __launch_bounds__(k::tile_threads(k::SgemmTile{SGEMM_TUNE_TILE_ARGS}))
    pdl_edges_no_wait(int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
                      const float *__restrict__ B, int ldb, float beta, float *__restrict__ C, int ldc, int operands) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
  k::detail::edge_body<k::detail::kPlainEdges, k::kEdgeBodyPlain, SGEMM_TUNE_TILE_ARGS>(M, N, K, alpha, A, lda, B, ldb,
                                                                                      beta, C, ldc, operands);
}

// Nothing, with the edge kernel's parameters: a launch's own cost.
__global__ void empty_kernel(int, int, int, float, const float *, int, const float *, int, float, float *, int, int) {}

namespace {

constexpr int kCalls = 200;  // a round: well inside the launch queue
constexpr int kRounds = 7;
constexpr float kAlpha = 0.75f, kBeta = 0.5f;

struct Product {
  int M, N, K;
};

struct Kernel {
  const char *name;
  const void *function;
  k::SgemmTile tile;
  bool pdl;
};

// A product's operands (dense row-major), random, and a spare C to start rounds from.
struct Operands {
  Operands(const Product &p, cudaStream_t stream)
      : na(size_t(p.M) * p.K), nb(size_t(p.K) * p.N), nc(size_t(p.M) * p.N) {
    CHECK(cudaMalloc(&A, na * sizeof(float)));
    CHECK(cudaMalloc(&B, nb * sizeof(float)));
    CHECK(cudaMalloc(&C0, nc * sizeof(float)));
    CHECK(cudaMalloc(&C, nc * sizeof(float)));
    fill<<<256, 256, 0, stream>>>(A, na, 1, 0.0f, true);
    fill<<<256, 256, 0, stream>>>(B, nb, 2, 0.0f, true);
    fill<<<256, 256, 0, stream>>>(C0, nc, 3, 0.0f, true);
    CHECK(cudaMemcpyAsync(C, C0, nc * sizeof(float), cudaMemcpyDeviceToDevice, stream));
    CHECK(cudaStreamSynchronize(stream));
  }
  ~Operands() {
    cudaFree(A);
    cudaFree(B);
    cudaFree(C0);
    cudaFree(C);
  }
  Operands(const Operands &) = delete;
  Operands &operator=(const Operands &) = delete;
  size_t na, nb, nc;
  float *A = nullptr, *B = nullptr, *C0 = nullptr, *C = nullptr;
};

// One call of `kn` on the product (dense row-major: lda K, ldb N, ldc N).
cudaError_t launch(const Kernel &kn, const Product &p, const Operands &o, cudaStream_t stream, float beta) {
  int M = p.M, N = p.N, K = p.K, lda = p.K, ldb = p.N, ldc = p.N, operands = 0;
  float alpha = kAlpha;
  const float *A = o.A, *B = o.B;
  float *C = o.C;
  void *args[] = {&M, &N, &K, &alpha, &A, &lda, &B, &ldb, &beta, &C, &ldc, &operands};
  const k::SgemmLaunchPlan plan = k::tile_edges_launch_plan(kn.tile, M, N, 1);
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(plan.grid_x, plan.grid_y, plan.grid_z);
  config.blockDim = dim3(static_cast<unsigned>(k::tile_threads(kn.tile)));
  config.dynamicSmemBytes = static_cast<size_t>(k::tile_smem_bytes(kn.tile));
  config.stream = stream;
  config.attrs = kn.pdl ? &attribute : nullptr;
  config.numAttrs = kn.pdl ? 1 : 0;
  return cudaLaunchKernelExC(&config, kn.function, args);
}

// The same product by cuBLAS (on the handle's stream): row-major C = A B as the column-major
// C^T = B^T A^T.
cudaError_t cublas_call(cublasHandle_t h, const Product &p, const Operands &o, float beta) {
  const float alpha = kAlpha;
  return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, p.N, p.M, p.K, &alpha, o.B, p.N, o.A, p.K, &beta, o.C, p.N) ==
                 CUBLAS_STATUS_SUCCESS
             ? cudaSuccess
             : cudaErrorUnknown;
}

// Ways 0 .. ways - 1 of calling one product (call(w) enqueues one call on `stream`), timed in
// alternating rounds: kCalls calls back to back from the host, then the same calls replayed
// as one CUDA graph, captured once. The medians, us a call, {stream, graph} per way; a way
// whose calls cannot be captured gets a graph time of NaN and a line saying why.
template <typename Call>
std::vector<std::pair<double, double>> time_ways(int ways, Call call, cudaStream_t stream, const char *label) {
  std::vector<cudaGraphExec_t> graphs(ways, nullptr);
  for (int w = 0; w < ways; ++w) {
    CHECK(call(w));  // loads the kernel before the capture
    CHECK(cudaStreamSynchronize(stream));
    std::string why;
    graphs[w] = bench_shapes::capture_round([&](cudaStream_t) { return call(w); }, kCalls, stream, &why);
    if (graphs[w] == nullptr) std::printf("# %s way %d: %s\n", label, w, why.c_str());
  }
  std::vector<std::vector<double>> stream_us(ways), graph_us(ways);
  for (int r = 0; r < kRounds; ++r)
    for (int w = 0; w < ways; ++w) {
      stream_us[w].push_back(1000.0 * events_ms(stream, [&] {
                               for (int i = 0; i < kCalls; ++i) CHECK(call(w));
                             }) /
                             kCalls);
      graph_us[w].push_back(graphs[w] == nullptr ? NAN
                                                 : 1000.0 * bench_shapes::graph_round_ms(graphs[w], kCalls, stream));
    }
  std::vector<std::pair<double, double>> medians;
  for (int w = 0; w < ways; ++w) {
    medians.emplace_back(median(stream_us[w]), median(graph_us[w]));
    if (graphs[w] != nullptr) CHECK(cudaGraphExecDestroy(graphs[w]));
  }
  return medians;
}

std::string describe(const Product &p) {
  char label[32];
  std::snprintf(label, sizeof label, "%dx%dx%d", p.M, p.N, p.K);
  return label;
}

template <SGEMM_TUNE_TILE_PARAMS>
void add_tile(std::vector<Kernel> *ways, const char *name) {
  const k::SgemmTile t{SGEMM_TUNE_TILE_ARGS};
  const void *plain = reinterpret_cast<const void *>(&k::sgemm_double_buffered_edges<SGEMM_TUNE_TILE_ARGS>);
  const void *waits = reinterpret_cast<const void *>(&pdl_edges<SGEMM_TUNE_TILE_ARGS>);
  const void *races = reinterpret_cast<const void *>(&pdl_edges_no_wait<SGEMM_TUNE_TILE_ARGS>);
  for (const void *f : {plain, waits, races})
    CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, k::tile_smem_bytes(t)));
  ways->push_back({name, plain, t, false});
  ways->push_back({name, waits, t, false});
  ways->push_back({name, waits, t, true});
  ways->push_back({name, races, t, true});
}
constexpr int kWaysPerTile = 4;  // add_tile's: template, wait, pdl, no-wait

// The mode pdl (see the top of the file); the number of C's that differ from the template's.
int run_pdl(cublasHandle_t h, cudaStream_t stream) {
  std::vector<Kernel> kernels;
  add_tile<64, 64, 32, 32, 32, 1, 8, 4, 2, 1, 1>(&kernels, "64x64x32 w32x32");
  add_tile<32, 64, 16, 32, 64, 2, 4, 4, 3, 0, 1>(&kernels, "32x64x16 w32x64");
  add_tile<64, 128, 32, 32, 128, 2, 8, 4, 2, 0, 1>(&kernels, "64x128x32 w32x128");
  const char *way_names[] = {"template", "wait", "pdl", "no-wait"};
  const Product products[] = {{80, 1588, 76}, {248, 76, 72}, {256, 256, 256}, {128, 128, 128},
                              {512, 512, 512}, {1000, 1000, 1000}};
  int failures = 0;
  std::printf("%-16s %-18s %-8s %9s %9s %s\n", "product", "tile", "way", "stream", "graph", "C after a round");
  for (const Product &p : products) {
    const Operands o(p, stream);
    const std::string label = describe(p);
    const int ways = static_cast<int>(kernels.size()) + 1;  // every kernel's, then cuBLAS
    const auto call_at = [&](int w, float beta) {
      return w < ways - 1 ? launch(kernels[w], p, o, stream, beta) : cublas_call(h, p, o, beta);
    };
    const auto times = time_ways(ways, [&](int w) { return call_at(w, kBeta); }, stream, label.c_str());
    // Each kernel's C after one round of calls at beta = 1 from the same C, against the
    // template's of its tile: the same body, so the same bits, unless a call read C before
    // the previous one had written it (see the top of the file).
    std::vector<float> reference(o.nc), got(o.nc);
    for (int w = 0; w < ways; ++w) {
      CHECK(cudaMemcpyAsync(o.C, o.C0, o.nc * sizeof(float), cudaMemcpyDeviceToDevice, stream));
      for (int i = 0; i < kCalls; ++i) CHECK(call_at(w, 1.0f));
      CHECK(cudaStreamSynchronize(stream));
      CHECK(cudaMemcpy(got.data(), o.C, o.nc * sizeof(float), cudaMemcpyDeviceToHost));
      const int way = w % kWaysPerTile;
      if (w < ways - 1 && way == 0) reference = got;
      const char *check = "";
      if (w < ways - 1 && way != 0) {
        const bool same = std::memcmp(reference.data(), got.data(), o.nc * sizeof(float)) == 0;
        if (way == kWaysPerTile - 1) {  // the control
          check = same ? "same bits: this check could not have seen a race here" : "differs, as a race should";
        } else {
          failures += !same;
          check = same ? "same bits as template" : "DIFFERS from template";
        }
      }
      std::printf("%-16s %-18s %-8s %9.2f %9.2f %s\n", label.c_str(), w < ways - 1 ? kernels[w].name : "-",
                  w < ways - 1 ? way_names[way] : "cublas", times[w].first, times[w].second, check);
    }
  }
  std::printf("%d differences\n", failures);
  return failures;
}

// The mode floor (see the top of the file).
void run_floor(cublasHandle_t h, cudaStream_t stream) {
  std::vector<Kernel> tile;
  add_tile<64, 64, 32, 32, 32, 1, 8, 4, 2, 1, 1>(&tile, "64x64x32 w32x32");
  const Kernel edge = tile[0];  // the template's own kernel, a plain launch
  const Kernel empty{"empty", reinterpret_cast<const void *>(&empty_kernel), edge.tile, false};
  CHECK(cudaFuncSetAttribute(empty.function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             k::tile_smem_bytes(edge.tile)));
  const char *way_names[] = {"edge beta 0", "edge beta 0.5", "empty", "cublas beta 0", "cublas beta 0.5"};
  std::printf("%-16s %6s %-16s %9s %9s\n", "product", "tiles", "way", "stream", "graph");
  for (const int tiles_m : {1, 12})  // one tile; 12 x 11 = 132 tiles, a wave of the H100's SMs
    for (const int K : {32, 64, 128, 256, 512, 1024}) {
      const Product p{64 * tiles_m, 64 * (tiles_m == 1 ? 1 : 11), K};
      const Operands o(p, stream);
      const auto call = [&](int w) {
        switch (w) {
          case 0: return launch(edge, p, o, stream, 0.0f);
          case 1: return launch(edge, p, o, stream, kBeta);
          case 2: return launch(empty, p, o, stream, 0.0f);
          case 3: return cublas_call(h, p, o, 0.0f);
          default: return cublas_call(h, p, o, kBeta);
        }
      };
      const std::string label = describe(p);
      const auto times = time_ways(5, call, stream, label.c_str());
      for (int w = 0; w < 5; ++w)
        std::printf("%-16s %6d %-16s %9.2f %9.2f\n", label.c_str(), tiles_m == 1 ? 1 : 132, way_names[w],
                    times[w].first, times[w].second);
    }
}

// The mode stages (see the top of the file).
void run_stages(cublasHandle_t h, cudaStream_t stream) {
  std::vector<Kernel> all, kernels;
  add_tile<64, 64, 32, 32, 32, 1, 8, 4, 2, 1, 1>(&all, "64x64x32 s2");
  add_tile<64, 64, 32, 32, 32, 1, 8, 4, 3, 1, 1>(&all, "64x64x32 s3");
  add_tile<64, 64, 32, 32, 32, 1, 8, 4, 4, 1, 1>(&all, "64x64x32 s4");
  add_tile<64, 64, 16, 32, 32, 1, 8, 4, 2, 1, 1>(&all, "64x64x16 s2");
  add_tile<64, 64, 16, 32, 32, 1, 8, 4, 4, 1, 1>(&all, "64x64x16 s4");
  add_tile<32, 64, 16, 32, 64, 2, 4, 4, 3, 0, 1>(&all, "32x64x16 s3");
  add_tile<32, 64, 16, 32, 64, 2, 4, 4, 4, 0, 1>(&all, "32x64x16 s4");
  add_tile<32, 64, 32, 32, 64, 2, 4, 4, 2, 0, 1>(&all, "32x64x32 s2");
  add_tile<32, 32, 32, 32, 32, 1, 8, 4, 2, 1, 1>(&all, "32x32x32 s2");
  for (size_t i = 0; i < all.size(); i += kWaysPerTile) kernels.push_back(all[i]);  // each tile's own kernel, plain
  const Product products[] = {{80, 1588, 76}, {248, 76, 72},   {256, 256, 256},  {128, 128, 128},
                              {512, 512, 512}, {768, 704, 128}, {768, 704, 512}, {1000, 1000, 1000}};
  std::printf("%-16s %-14s %9s %9s\n", "product", "tile", "stream", "graph");
  for (const Product &p : products) {
    const Operands o(p, stream);
    const int ways = static_cast<int>(kernels.size()) + 1;
    const auto call = [&](int w) {
      return w < ways - 1 ? launch(kernels[w], p, o, stream, 0.0f) : cublas_call(h, p, o, 0.0f);
    };
    const std::string label = describe(p);
    const auto times = time_ways(ways, call, stream, label.c_str());
    for (int w = 0; w < ways; ++w)
      std::printf("%-16s %-14s %9.2f %9.2f\n", label.c_str(), w < ways - 1 ? kernels[w].name : "cublas",
                  times[w].first, times[w].second);
  }
}

// The mode split (see the top of the file).
struct SplitTile {
  const char *name;
  const void *function;  // the tile's edge kernel (plain body)
  k::SgemmTile tile;
};

template <SGEMM_TUNE_TILE_PARAMS>
SplitTile split_tile(const char *name) {
  const k::SgemmTile t{SGEMM_TUNE_TILE_ARGS};
  const void *f = reinterpret_cast<const void *>(&k::sgemm_double_buffered_edges<SGEMM_TUNE_TILE_ARGS>);
  CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, k::tile_smem_bytes(t)));
  return {name, f, t};
}

struct SplitWay {
  const SplitTile *tile;
  int splits;
  bool clusters;
};

// Relative Frobenius error of `got` against `want` (both M x N, dense); infinite at a NaN.
double split_error(const std::vector<float> &got, const std::vector<float> &want) {
  double diff = 0, norm = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i])) return INFINITY;
    const double d = double(got[i]) - want[i];
    diff += d * d;
    norm += double(want[i]) * want[i];
  }
  return norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
}

__global__ void fill_value(float *p, size_t n, float v) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) p[i] = v;
}

void run_split(cublasHandle_t h, cudaStream_t stream) {
  const SplitTile tiles[] = {
      split_tile<64, 64, 32, 32, 32, 1, 8, 4, 2, 1, 1>("64x64x32 w32x32 t8x4"),  // the header's, 32 a thread
      split_tile<64, 64, 16, 32, 16, 1, 4, 4, 2, 1, 0>("64x64x16 w32x16 t4x4"),  // 8 warps, 16 a thread
      split_tile<64, 32, 16, 32, 16, 1, 4, 4, 2, 1, 0>("64x32x16 w32x16 t4x4"),  // 4 warps, 16 a thread
      split_tile<32, 32, 16, 16, 32, 1, 4, 4, 2, 1, 0>("32x32x16 w16x32 t4x4"),  // 2 warps, 16 a thread
      split_tile<32, 32, 8, 16, 32, 1, 4, 4, 3, 1, 0>("32x32x8 w16x32 t4x4"),    // cuBLAS's shape of block
      split_tile<32, 32, 16, 16, 16, 1, 2, 4, 2, 1, 0>("32x32x16 w16x16 t2x4"),  // 4 warps, 8 a thread
  };
  // The random set's small products, with N and K rounded up to multiples of 4 where they
  // were not (95x709x116, 1009x114x140, 2442x118x151, 263x88x281): `launch` passes dense
  // rows and the plain body, whose 16-byte copies need every row of A, B and C 16-byte
  // aligned (the narrow body is another kernel). Run as they were, the first of them stopped
  // the mode with a misaligned address (session 40).
  const Product products[] = {{80, 1588, 76},  {248, 76, 72},   {95, 712, 116},  {1009, 116, 140}, {2442, 120, 152},
                              {263, 88, 284},  {128, 128, 128}, {256, 256, 256}, {512, 512, 512},  {1000, 1000, 1000}};
  for (const Product &p : products)
    if (p.N % 4 != 0 || p.K % 4 != 0) {
      std::fprintf(stderr, "split: %s has rows not 16-byte aligned, which the plain body cannot read\n",
                   describe(p).c_str());
      std::exit(2);
    }
  // Slots enough that every split runs as clusters, however many blocks it makes.
  const k::ClusterSlots force_clusters = k::uniform_cluster_slots(1 << 20);
  std::printf("%-16s %-22s %6s %-8s %7s %9s %9s %9s %s\n", "product", "tile", "splits", "as", "blocks", "stream",
              "graph", "x cublas", "check");
  int wrong = 0;
  for (const Product &p : products) {
    const Operands o(p, stream);
    std::vector<SplitWay> ways;
    for (const SplitTile &t : tiles) {
      const int slices = (p.K + t.tile.BK - 1) / t.tile.BK;
      for (const int splits : {1, 2, 4, 8}) {
        if (splits > slices) continue;
        ways.push_back({&t, splits, false});
        if (splits > 1) ways.push_back({&t, splits, true});
      }
    }
    const int n = static_cast<int>(ways.size()) + 1;  // then cuBLAS
    const auto call_at = [&](int w, float beta) {
      if (w == n - 1) return cublas_call(h, p, o, beta);
      const SplitWay &x = ways[w];
      return k::launch_tile_edges(x.tile->function, x.tile->tile, x.splits, p.M, p.N, p.K, kAlpha, o.A, p.K, o.B, p.N,
                                  beta, o.C, p.N, x.clusters ? int(k::kOperandClusterSplit) : 0, stream, 0,
                                  x.clusters ? &force_clusters : nullptr);
    };
    const std::string label = describe(p);
    const auto times = time_ways(n, [&](int w) { return call_at(w, 0.0f); }, stream, label.c_str());
    // cuBLAS's C at beta 0 and at beta 0.5 from C0, then each way's against them.
    std::vector<float> want0(o.nc), want5(o.nc), got(o.nc);
    const auto run_once = [&](int w, float beta, std::vector<float> *out) {
      if (beta == 0.0f)
        fill_value<<<256, 256, 0, stream>>>(o.C, o.nc, NAN);
      else
        CHECK(cudaMemcpyAsync(o.C, o.C0, o.nc * sizeof(float), cudaMemcpyDeviceToDevice, stream));
      CHECK(call_at(w, beta));
      CHECK(cudaStreamSynchronize(stream));
      CHECK(cudaMemcpy(out->data(), o.C, o.nc * sizeof(float), cudaMemcpyDeviceToHost));
    };
    run_once(n - 1, 0.0f, &want0);
    run_once(n - 1, kBeta, &want5);
    const double cublas_us = times[n - 1].second;
    for (int w = 0; w < n; ++w) {
      std::string check = "-";
      if (w < n - 1) {
        run_once(w, 0.0f, &got);
        const double e0 = split_error(got, want0);
        run_once(w, kBeta, &got);
        const double e5 = split_error(got, want5);
        const bool ok = e0 < 1e-4 && e5 < 1e-4;
        wrong += !ok;
        char text[64];
        std::snprintf(text, sizeof text, "%s %.1e %.1e", ok ? "ok" : "WRONG", e0, e5);
        check = text;
      }
      long long blocks = 0;
      if (w < n - 1) {
        const k::SgemmLaunchPlan plan = k::tile_edges_launch_plan(ways[w].tile->tile, p.M, p.N, ways[w].splits);
        blocks = static_cast<long long>(plan.grid_x) * plan.grid_y * plan.grid_z;
      }
      std::printf("%-16s %-22s %6d %-8s %7lld %9.2f %9.2f %9.2f %s\n", label.c_str(),
                  w < n - 1 ? ways[w].tile->name : "cublas", w < n - 1 ? ways[w].splits : 0,
                  w == n - 1 ? "-" : ways[w].splits == 1 ? "whole" : ways[w].clusters ? "clusters" : "scale",
                  blocks, times[w].first, times[w].second, times[w].second / cublas_us, check.c_str());
    }
  }
  std::printf("%d wrong\n", wrong);
  if (wrong) std::exit(1);
}

// The mode waves (see the top of the file).
// The kernel launches `call` enqueues on `stream`, counted in a graph captured from it.
template <typename Call>
size_t launches_of(Call call, cudaStream_t stream) {
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  const cudaError_t launched = call();
  CHECK(cudaStreamEndCapture(stream, &graph));
  CHECK(launched);
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  CHECK(cudaGraphDestroy(graph));
  return nodes;
}

void run_waves(cublasHandle_t h, cudaStream_t stream) {
  int device = 0;
  CHECK(cudaGetDevice(&device));
  const k::ClusterSlots *gpu = sgemm_tune_runtime::device_cluster_slots(device);
  if (gpu == nullptr) {
    std::printf("this GPU launches no clusters\n");
    return;
  }
  const SplitTile tile = split_tile<128, 128, 16, 32, 64, 2, 8, 4, 3, 1, 1>("128x128x16 w32x64 t8x4 s3");
  k::ClusterSlots own{};
  CHECK(k::kernel_cluster_slots(tile.function, tile.tile, device, &own));
  int per_sm = 0;
  CHECK(k::tile_blocks_per_sm(tile.function, tile.tile, &per_sm));
  std::printf("clusters at once, sizes 2..%d: GPU at one block per SM (%s)", k::kMaxClusterSplit,
              gpu->measured ? "asked" : "not asked: uniform");
  for (int s = 2; s <= k::kMaxClusterSplit; ++s) std::printf(" %d", gpu->at_once[s]);
  std::printf("; %s (%d blocks per SM)", tile.name, per_sm);
  for (int s = 2; s <= k::kMaxClusterSplit; ++s) std::printf(" %d", own.at_once[s]);
  std::printf("; uniform");
  for (int s = 2; s <= k::kMaxClusterSplit; ++s) std::printf(" %d", k::uniform_cluster_slots(gpu->sms, per_sm).at_once[s]);
  std::printf("\n");
  const k::ClusterSlots force_clusters = k::uniform_cluster_slots(1 << 20);
  std::printf("%-16s %5s %6s %-8s %7s %7s %9s %9s %9s %s\n", "product", "tiles", "splits", "as", "blocks", "at once",
              "stream", "graph", "x cublas", "check");
  int wrong = 0;
  // Per split, the tiles on either side of the kernel's clusters at once, and never more
  // blocks than SMs: past them the scale pass's blocks would take a second wave as well.
  for (const int splits : {4, 6}) {
    const int last = std::min(own.at_once[splits] + 3, gpu->sms / splits);
    for (int tiles = std::max(1, own.at_once[splits] - 3); tiles <= last; ++tiles) {
      const Product p{128 * tiles, 128, 1024};
      const Operands o(p, stream);
      constexpr int n = 4;  // whole, clusters, scale pass, then cuBLAS
      const auto call_at = [&](int w, float beta) {
        if (w == n - 1) return cublas_call(h, p, o, beta);
        const int ways = w == 0 ? 1 : splits;
        return k::launch_tile_edges(tile.function, tile.tile, ways, p.M, p.N, p.K, kAlpha, o.A, p.K, o.B, p.N, beta,
                                    o.C, p.N, w == 1 ? int(k::kOperandClusterSplit) : 0, stream, 0,
                                    w == 1 ? &force_clusters : nullptr);
      };
      // A cluster launch the GPU refuses runs after the scale pass instead: two launches.
      const bool refused = launches_of([&] { return call_at(1, 0.0f); }, stream) != 1;
      CHECK(cudaStreamSynchronize(stream));
      const std::string label = describe(p);
      const auto times = time_ways(n, [&](int w) { return call_at(w, 0.0f); }, stream, label.c_str());
      std::vector<float> want(o.nc), got(o.nc);
      const auto run_once = [&](int w, std::vector<float> *out) {
        fill_value<<<256, 256, 0, stream>>>(o.C, o.nc, NAN);
        CHECK(call_at(w, 0.0f));
        CHECK(cudaStreamSynchronize(stream));
        CHECK(cudaMemcpy(out->data(), o.C, o.nc * sizeof(float), cudaMemcpyDeviceToHost));
      };
      run_once(n - 1, &want);
      const char *as[] = {"whole", refused ? "refused" : "clusters", "scale", "cublas"};
      for (int w = 0; w < n; ++w) {
        std::string check = "-";
        if (w < n - 1) {
          run_once(w, &got);
          const double e = split_error(got, want);
          wrong += !(e < 1e-4);
          char text[32];
          std::snprintf(text, sizeof text, "%s %.1e", e < 1e-4 ? "ok" : "WRONG", e);
          check = text;
        }
        const int ways = w == n - 1 ? 0 : w == 0 ? 1 : splits;
        std::printf("%-16s %5d %6d %-8s %7d %7d %9.2f %9.2f %9.2f %s\n", label.c_str(), tiles, ways, as[w],
                    tiles * ways, ways > 1 ? own.at_once[ways] : 0, times[w].first, times[w].second,
                    times[w].second / times[n - 1].second, check.c_str());
      }
    }
  }
  std::printf("%d wrong\n", wrong);
  if (wrong) std::exit(1);
}
}  // namespace

int main(int argc, char **argv) {
  const std::string mode = argc == 2 ? argv[1] : "";
  if (mode != "pdl" && mode != "floor" && mode != "stages" && mode != "split" && mode != "waves") {
    std::fprintf(stderr, "usage: small_products pdl|floor|stages|split|waves\n");
    return 2;
  }
  int device = 0;
  CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("GPU: %s; %s; %d calls a round, median of %d rounds; us per call\n", prop.name, argv[1], kCalls,
              kRounds);
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CHECK_CUBLAS(cublasSetStream(h, stream));
  int failures = 0;
  if (mode == "pdl")
    failures = run_pdl(h, stream);
  else if (mode == "floor")
    run_floor(h, stream);
  else if (mode == "stages")
    run_stages(h, stream);
  else if (mode == "split")
    run_split(h, stream);
  else
    run_waves(h, stream);
  CHECK(cudaStreamDestroy(stream));
  CHECK_CUBLAS(cublasDestroy(h));
  return failures ? 1 : 0;
}
