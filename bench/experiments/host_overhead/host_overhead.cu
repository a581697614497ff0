// Where a small product's time goes when a program calls it back to back: the host's time
// per call (issuing a burst of calls, no synchronisation inside it) beside the time per call
// of the whole burst (host and GPU, to the last kernel's end), for sgemm_tuned through an
// emitted header, for cublasSgemm on the same operands, and for bare launches of an empty
// kernel (cudaLaunchKernel, and cudaLaunchKernelExC with a cluster of 2): the floor any
// launch pays. Row-major, dense, beta 0.
//
// Build against a header (the GPU machine; or here, where nvcc needs no GPU):
//   nvcc -std=c++17 -O2 -arch=sm_90 -I<header dir> -Ikernel_templates \
//        bench/experiments/host_overhead/host_overhead.cu -lcublas -o host_overhead
// Add -DSGEMM_TUNE_NO_CLUSTER_SPLIT for the header's splits of K after a scale pass.
//   host_overhead [MxNxK ...]
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sgemm_tuned.h"

#define CHECK(x)                                                                                       \
  do {                                                                                                 \
    const cudaError_t e_ = (x);                                                                        \
    if (e_ != cudaSuccess) {                                                                           \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));         \
      std::exit(1);                                                                                    \
    }                                                                                                  \
  } while (0)

__global__ void empty_kernel(int) {}

namespace {

constexpr int kBurst = 200;  // calls a burst: well inside the launch queue
constexpr int kRounds = 9;

struct Timing {
  double host_us, total_us;  // medians over the rounds, per call
};

template <typename F>
Timing time_bursts(F call) {
  for (int i = 0; i < 20; ++i) CHECK(call());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> host, total;
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int r = 0; r < kRounds; ++r) {
    CHECK(cudaEventRecord(start));
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kBurst; ++i) CHECK(call());
    const auto t1 = std::chrono::steady_clock::now();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    host.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / kBurst);
    total.push_back(1000.0 * ms / kBurst);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(host.begin(), host.end());
  std::sort(total.begin(), total.end());
  return {host[kRounds / 2], total[kRounds / 2]};
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::string> shapes;
  for (int i = 1; i < argc; ++i) shapes.push_back(argv[i]);
  if (shapes.empty())
    shapes = {"248x76x72",    "1009x116x140", "408x2088x84",    "837x532x144",
              "162x124x2612", "256x256x4096", "1024x1024x1024", "2048x2048x2048"};
  CHECK(cudaSetDevice(0));
  cublasHandle_t blas;
  if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) return 1;
#ifdef SGEMM_TUNE_NO_CLUSTER_SPLIT
  std::printf("splits of K: after a scale pass (SGEMM_TUNE_NO_CLUSTER_SPLIT)\n");
#else
  std::printf("splits of K: as clusters where the GPU launches them\n");
#endif
  {
    int v = 0;
    const Timing plain = time_bursts([&] {
      void *args[] = {&v};
      return cudaLaunchKernel(reinterpret_cast<const void *>(&empty_kernel), dim3(1), dim3(32), args, 0, 0);
    });
    const Timing cluster = time_bursts([&] {
      cudaLaunchAttribute a{};
      a.id = cudaLaunchAttributeClusterDimension;
      a.val.clusterDim.x = 1;
      a.val.clusterDim.y = 1;
      a.val.clusterDim.z = 2;
      cudaLaunchConfig_t c{};
      c.gridDim = dim3(1, 1, 2);
      c.blockDim = dim3(32);
      c.attrs = &a;
      c.numAttrs = 1;
      void *args[] = {&v};
      return cudaLaunchKernelExC(&c, reinterpret_cast<const void *>(&empty_kernel), args);
    });
    std::printf("empty kernel, cudaLaunchKernel:            host %6.2f us/call, burst %6.2f us/call\n",
                plain.host_us, plain.total_us);
    std::printf("empty kernel, cudaLaunchKernelExC cluster: host %6.2f us/call, burst %6.2f us/call\n",
                cluster.host_us, cluster.total_us);
  }
  std::printf("%-16s %-22s %8s %8s   %8s %8s   %s\n", "shape", "route", "host us", "burst us", "cuBLAS h",
              "cuBLAS b", "burst cuBLAS / ours");
  for (const std::string &s : shapes) {
    int M = 0, N = 0, K = 0;
    if (std::sscanf(s.c_str(), "%dx%dx%d", &M, &N, &K) != 3 || M < 1 || N < 1 || K < 1) {
      std::fprintf(stderr, "not a shape: %s\n", s.c_str());
      return 2;
    }
    float *A, *B, *C;
    CHECK(cudaMalloc(&A, sizeof(float) * M * K));
    CHECK(cudaMalloc(&B, sizeof(float) * K * N));
    CHECK(cudaMalloc(&C, sizeof(float) * M * N));
    CHECK(cudaMemset(A, 0, sizeof(float) * M * K));
    CHECK(cudaMemset(B, 0, sizeof(float) * K * N));
    sgemm_tune_runtime::Route r;
    CHECK(sgemm_tune_runtime::route(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, M, N, K, A, B, C, &r));
    char route[64];
    std::snprintf(route, sizeof route, "%s/%d", sgemm_tune_runtime::path_name(r.path), r.splits);
    const float alpha = 1.0f, beta = 0.0f;
    const Timing ours = time_bursts([&] { return sgemm_tuned(M, N, K, alpha, A, B, beta, C); });
    const Timing theirs = time_bursts([&] {
      return cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K, &beta, C, N) ==
                     CUBLAS_STATUS_SUCCESS
                 ? cudaSuccess
                 : cudaErrorUnknown;
    });
    std::printf("%-16s %-22s %8.2f %8.2f   %8.2f %8.2f   %.3f\n", s.c_str(), route, ours.host_us, ours.total_us,
                theirs.host_us, theirs.total_us, theirs.total_us / ours.total_us);
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
  }
  cublasDestroy(blas);
  return 0;
}
