// How long a stream-ordered allocation takes after a synchronisation, with the device's
// default pool releasing memory at each synchronisation (release threshold 0, the default)
// and keeping it (threshold raised). Per size: median wall time of
// [cudaMallocAsync; cudaMemsetAsync of the block; cudaFreeAsync; cudaStreamSynchronize].
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)
int main() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  for (int keep = 0; keep < 2; ++keep) {
    std::uint64_t threshold = keep ? UINT64_MAX : 0;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    CHECK(cudaMemPoolTrimTo(pool, 0));
    for (std::size_t mb : {1, 4, 16, 64, 256}) {
      std::vector<double> us;
      for (int i = 0; i < 15; ++i) {
        CHECK(cudaStreamSynchronize(s));
        const auto t0 = std::chrono::steady_clock::now();
        void *p = nullptr;
        CHECK(cudaMallocAsync(&p, mb << 20, s));
        CHECK(cudaMemsetAsync(p, 0, mb << 20, s));
        CHECK(cudaFreeAsync(p, s));
        CHECK(cudaStreamSynchronize(s));
        us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
      }
      // The memset alone, for what the allocation adds.
      void *q = nullptr;
      CHECK(cudaMalloc(&q, mb << 20));
      std::vector<double> base;
      for (int i = 0; i < 15; ++i) {
        CHECK(cudaStreamSynchronize(s));
        const auto t0 = std::chrono::steady_clock::now();
        CHECK(cudaMemsetAsync(q, 0, mb << 20, s));
        CHECK(cudaStreamSynchronize(s));
        base.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
      }
      CHECK(cudaFree(q));
      std::sort(us.begin(), us.end());
      std::sort(base.begin(), base.end());
      std::printf("release threshold %s, %4zu MB: alloc+memset+free %8.1f us (min %8.1f), memset alone %7.1f us\n",
                  keep ? "max" : "0  ", mb, us[us.size() / 2], us[0], base[base.size() / 2]);
    }
  }
  return 0;
}
