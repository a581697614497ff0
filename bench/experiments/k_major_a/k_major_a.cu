// Experiment: is the fast kernel faster when A arrives K-major (stored K x M, the row-major
// TN product), so that A is copied into shared memory as it lies (cp.async) instead of going
// through registers and a transposing store? And does that pay for transposing a row-major
// A first?
//
// For each tile below, at one whole-tile shape, in alternating rounds:
//   NN   sgemm_double_buffered on row-major A (M x K)
//   TN   sgemm_double_buffered_transposed_a on At (K x M), the same product
//   edge sgemm_double_buffered_edges, plain A and transposed A, for scale
// plus cuBLAS on both layouts and the time of transposing A (M x K -> K x M). Every result
// is compared with cuBLAS's. Built with nvcc, so registers are nvcc's, against the template
// with k_major_a.patch applied (it adds sgemm_double_buffered_transposed_a):
//   bench/experiments/make_variant.sh k_major_a 681869b
//   cp kernel_templates/sgemm_launch.h .device/variants/k_major_a/   # one copy of the rules
//   nvcc -O3 -std=c++17 -arch=sm_90 -I.device/variants/k_major_a \
//     bench/experiments/k_major_a/k_major_a.cu -lcublas -o .device/k_major_a
//   k_major_a [M N K] [rounds]
// Outcome (bench/NOTES.md, bench/results/2026-12-01-h200-interior-tiles): at 4096^3 the
// K-major A is 0.5% faster at the best tile (-7% to +3% over ten), less than the 2% that
// transposing A first costs.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "sgemm_double_buffered.cuh"
#include "sgemm_launch.h"

using namespace sgemm_tune_kernels;

#define CHECK(x)                                                                             \
  do {                                                                                       \
    cudaError_t e_ = (x);                                                                    \
    if (e_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(2);                                                                          \
    }                                                                                        \
  } while (0)

namespace {

__global__ void fill(float *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    unsigned x = unsigned(i) * 2654435761u ^ seed;
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    p[i] = float(x >> 8) * (2.0f / 16777216.0f) - 1.0f;
  }
}

// out (cols x rows) = in^T, in row-major rows x cols: 32 x 32 tiles through shared memory.
__global__ void transpose(const float *__restrict__ in, float *__restrict__ out, int rows, int cols) {
  __shared__ float t[32][33];
  const int c = blockIdx.x * 32 + threadIdx.x;
  for (int r = blockIdx.y * 32 + threadIdx.y; r < blockIdx.y * 32 + 32; r += 8)
    if (r < rows && c < cols) t[r % 32][threadIdx.x] = in[size_t(r) * cols + c];
  __syncthreads();
  const int r2 = blockIdx.y * 32 + threadIdx.x;
  for (int c2 = blockIdx.x * 32 + threadIdx.y; c2 < blockIdx.x * 32 + 32; c2 += 8)
    if (r2 < rows && c2 < cols) out[size_t(c2) * rows + r2] = t[threadIdx.x][c2 % 32];
}

struct Runner {
  std::string name;
  std::function<void()> run;
  std::vector<float> ms;
};

float time_ms(const std::function<void()> &f, int launches) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaEventRecord(a));
  for (int i = 0; i < launches; ++i) f();
  CHECK(cudaEventRecord(b));
  CHECK(cudaEventSynchronize(b));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  CHECK(cudaGetLastError());
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms / launches;
}

double rel_error(const float *c, const float *ref, size_t n) {
  std::vector<float> h(n), r(n);
  CHECK(cudaMemcpy(h.data(), c, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r.data(), ref, n * 4, cudaMemcpyDeviceToHost));
  double d = 0, s = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(h[i])) return INFINITY;
    d += (double(h[i]) - r[i]) * (double(h[i]) - r[i]);
    s += double(r[i]) * r[i];
  }
  return std::sqrt(d / s);
}

struct Problem {
  int M, N, K;
  float *A, *At, *B, *C, *ref;
};

template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int STAGES, int PREFETCH, int STREAMK>
void add_tile(std::vector<Runner> &runners, const Problem &p, int sms) {
  constexpr SgemmTile t{BM, BN, BK, WM, WN, WNITER, TM, TN, STAGES, PREFETCH, STREAMK};
  const void *nn = reinterpret_cast<const void *>(&sgemm_double_buffered<BM, BN, BK, WM, WN, WNITER, TM, TN, STAGES,
                                                                         PREFETCH, STREAMK>);
  const void *tn = reinterpret_cast<const void *>(
      &sgemm_double_buffered_transposed_a<BM, BN, BK, WM, WN, WNITER, TM, TN, STAGES, PREFETCH, STREAMK>);
  const void *edges = reinterpret_cast<const void *>(
      &sgemm_double_buffered_edges<BM, BN, BK, WM, WN, WNITER, TM, TN, STAGES, PREFETCH, STREAMK>);
  char label[96];
  std::snprintf(label, sizeof label, "%dx%dx%d w%dx%d i%d t%dx%d s%d p%d k%d", BM, BN, BK, WM, WN, WNITER, TM, TN,
                STAGES, PREFETCH, STREAMK);
  for (const void *k : {nn, tn, edges}) {
    CHECK(set_tile_smem_limit(k, t));
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, k));
    int per_sm = 0;
    CHECK(tile_blocks_per_sm(k, t, &per_sm));
    std::printf("%-40s %-5s regs %3d spill %3zu B, %d blocks/SM\n", label,
                k == nn ? "NN" : k == tn ? "TN" : "edges", attr.numRegs, attr.localSizeBytes, per_sm);
  }
  int persistent = 0;
  CHECK(tile_persistent_blocks(nn, t, 0, &persistent));
  int persistent_tn = 0;
  CHECK(tile_persistent_blocks(tn, t, 0, &persistent_tn));
  (void)sms;
  runners.push_back({std::string(label) + " NN", [=] {
                       CHECK(launch_tile(nn, t, persistent, p.M, p.N, p.K, 1.0f, p.A, p.K, p.B, p.N, 0.0f, p.C, p.N,
                                         0));
                     }});
  runners.push_back({std::string(label) + " TN", [=] {
                       CHECK(launch_tile(tn, t, persistent_tn, p.M, p.N, p.K, 1.0f, p.At, p.M, p.B, p.N, 0.0f, p.C,
                                         p.N, 0));
                     }});
  runners.push_back({std::string(label) + " edge NN", [=] {
                       CHECK(launch_tile_edges(edges, t, 1, p.M, p.N, p.K, 1.0f, p.A, p.K, p.B, p.N, 0.0f, p.C, p.N,
                                               0, 0));
                     }});
  runners.push_back({std::string(label) + " edge TN", [=] {
                       CHECK(launch_tile_edges(edges, t, 1, p.M, p.N, p.K, 1.0f, p.At, p.M, p.B, p.N, 0.0f, p.C, p.N,
                                               kOperandTransA, 0));
                     }});
}

}  // namespace

int main(int argc, char **argv) {
  Problem p{4096, 4096, 4096};
  if (argc >= 4) p = Problem{std::atoi(argv[1]), std::atoi(argv[2]), std::atoi(argv[3])};
  const int rounds = argc >= 5 ? std::atoi(argv[4]) : 5;
  const int launches = 10;
  const size_t a = size_t(p.M) * p.K, b = size_t(p.K) * p.N, c = size_t(p.M) * p.N;
  CHECK(cudaMalloc(&p.A, a * 4));
  CHECK(cudaMalloc(&p.At, a * 4));
  CHECK(cudaMalloc(&p.B, b * 4));
  CHECK(cudaMalloc(&p.C, c * 4));
  CHECK(cudaMalloc(&p.ref, c * 4));
  fill<<<1024, 256>>>(p.A, a, 1);
  fill<<<1024, 256>>>(p.B, b, 2);
  const dim3 tgrid((p.K + 31) / 32, (p.M + 31) / 32), tblock(32, 8);
  transpose<<<tgrid, tblock>>>(p.A, p.At, p.M, p.K);
  CHECK(cudaDeviceSynchronize());
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs; %dx%dx%d, %d rounds of %d launches each\n", prop.name, sms, p.M, p.N, p.K, rounds,
              launches);

  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 2;
  const float one = 1.0f, zero = 0.0f;
  // Row-major C = A B as column-major C^T = B^T A^T; with At (K x M) C^T = B^T At^T... the
  // column-major view of At is M x K, so op T gives the K x M matrix A^T needs.
  auto cublas_nn = [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, p.N, p.M, p.K, &one, p.B, p.N, p.A, p.K, &zero, p.C, p.N); };
  auto cublas_tn = [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, p.N, p.M, p.K, &one, p.B, p.N, p.At, p.M, &zero, p.C, p.N); };
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, p.N, p.M, p.K, &one, p.B, p.N, p.A, p.K, &zero, p.ref, p.N);
  CHECK(cudaDeviceSynchronize());

  std::vector<Runner> runners;
  runners.push_back({"cuBLAS NN", cublas_nn});
  runners.push_back({"cuBLAS TN", cublas_tn});
  runners.push_back({"transpose A", [&] { transpose<<<tgrid, tblock>>>(p.A, p.At, p.M, p.K); }});
  // The leading 4096^3 tiles of the last staged searches (bench/results/2026-11-30-h200-session6-final)
  // and two larger ones that the A registers kept out of reach.
  add_tile<64, 128, 32, 32, 128, 4, 8, 4, 2, 0, 1>(runners, p, sms);
  add_tile<64, 128, 32, 64, 64, 2, 4, 4, 2, 0, 1>(runners, p, sms);
  add_tile<64, 128, 32, 64, 64, 4, 8, 4, 2, 0, 1>(runners, p, sms);
  add_tile<64, 128, 32, 32, 128, 2, 4, 4, 2, 0, 1>(runners, p, sms);
  add_tile<64, 128, 32, 32, 128, 2, 4, 4, 2, 1, 1>(runners, p, sms);
  add_tile<64, 128, 32, 64, 64, 2, 8, 8, 2, 0, 0>(runners, p, sms);
  add_tile<64, 128, 16, 32, 128, 4, 8, 4, 2, 0, 1>(runners, p, sms);
  add_tile<64, 128, 32, 32, 128, 4, 8, 4, 3, 0, 1>(runners, p, sms);
  add_tile<128, 128, 32, 64, 64, 2, 8, 4, 2, 0, 1>(runners, p, sms);
  add_tile<128, 128, 16, 64, 64, 2, 8, 4, 3, 0, 1>(runners, p, sms);

  int bad = 0;
  for (Runner &r : runners) {
    if (r.name == "transpose A") continue;
    CHECK(cudaMemset(p.C, 0xff, c * 4));  // NaN: a kernel that skips an element shows
    r.run();
    CHECK(cudaDeviceSynchronize());
    const double e = rel_error(p.C, p.ref, c);
    if (!(e < 1e-5)) {
      std::printf("WRONG %s: relative error %.3g\n", r.name.c_str(), e);
      ++bad;
    }
  }
  for (int round = 0; round < rounds; ++round)
    for (Runner &r : runners) {
      r.run();  // warm-up
      r.ms.push_back(time_ms(r.run, launches));
    }
  const double flops = 2.0 * p.M * p.N * p.K;
  auto median = [](std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const double cublas = median(runners[0].ms);
  std::printf("%-48s %9s %9s %9s\n", "kernel", "ms", "TFLOP/s", "%cuBLAS");
  for (Runner &r : runners) {
    const double ms = median(r.ms);
    std::printf("%-48s %9.4f %9.2f %8.1f%%\n", r.name.c_str(), ms, flops / ms / 1e9, 100.0 * cublas / ms);
  }
  // Per tile: NN time over TN time (> 1: K-major A faster), and over TN plus the transpose
  // of A that a row-major NN product would need first.
  const double tr = median(runners[2].ms);
  std::printf("\n%-40s %9s %12s\n", "tile", "NN/TN", "NN/(TN+tr)");
  for (size_t i = 3; i + 3 < runners.size(); i += 4) {
    const double nn = median(runners[i].ms), tn = median(runners[i + 1].ms);
    std::printf("%-40s %9.4f %12.4f\n", runners[i].name.substr(0, runners[i].name.size() - 3).c_str(), nn / tn,
                nn / (tn + tr));
  }
  std::printf("%d wrong\n", bad);
  return bad ? 1 : 0;
}
