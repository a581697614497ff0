#include "tuner/gpu/device_kernels.h"

#include <cmath>
#include <limits>

#include "tuner/gpu/cuda_check.h"

namespace sgemm_tune {
namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 4096;

__device__ __forceinline__ std::uint64_t mix64(std::uint64_t x) {
  // splitmix64 finaliser: consecutive indices give independent-looking values.
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

__global__ void fill_uniform_kernel(float *data, std::size_t count, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t bits = mix64(seed ^ mix64(i));
    // 24 random bits -> [0, 1) -> [-1, 1)
    data[i] = static_cast<float>(bits >> 40) * (2.0f / 16777216.0f) - 1.0f;
  }
}

__global__ void fill_value_kernel(float *data, std::size_t count, float value) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    data[i] = value;
}

struct Partial {
  double diff;
  double ref;
  unsigned long long nonfinite;
};

__global__ void error_norms_kernel(const float *c, const float *ref, std::size_t count, Partial *out) {
  double diff = 0, refsq = 0;
  unsigned long long bad = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const float v = c[i];
    const double r = ref[i];
    if (!isfinite(v)) {
      ++bad;
    } else {
      const double d = static_cast<double>(v) - r;
      diff += d * d;
    }
    refsq += r * r;
  }
  __shared__ double s_diff[kThreads], s_ref[kThreads];
  __shared__ unsigned long long s_bad[kThreads];
  s_diff[threadIdx.x] = diff;
  s_ref[threadIdx.x] = refsq;
  s_bad[threadIdx.x] = bad;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      s_diff[threadIdx.x] += s_diff[threadIdx.x + stride];
      s_ref[threadIdx.x] += s_ref[threadIdx.x + stride];
      s_bad[threadIdx.x] += s_bad[threadIdx.x + stride];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = Partial{s_diff[0], s_ref[0], s_bad[0]};
}

int blocks_for(std::size_t count) {
  const std::size_t needed = (count + kThreads - 1) / kThreads;
  return static_cast<int>(needed < kMaxBlocks ? (needed > 0 ? needed : 1) : kMaxBlocks);
}

}  // namespace

double ErrorNorms::relative() const {
  if (nonfinite > 0) return std::numeric_limits<double>::infinity();
  if (ref_squared == 0) return diff_squared == 0 ? 0 : std::numeric_limits<double>::infinity();
  return std::sqrt(diff_squared / ref_squared);
}

void fill_uniform(float *data, std::size_t count, std::uint64_t seed, cudaStream_t stream) {
  fill_uniform_kernel<<<blocks_for(count), kThreads, 0, stream>>>(data, count, seed);
  SGEMM_CUDA_CHECK(cudaGetLastError());
}

void fill_value(float *data, std::size_t count, float value, cudaStream_t stream) {
  fill_value_kernel<<<blocks_for(count), kThreads, 0, stream>>>(data, count, value);
  SGEMM_CUDA_CHECK(cudaGetLastError());
}

std::size_t error_norms_scratch_bytes() { return sizeof(Partial) * kMaxBlocks; }

ErrorNorms error_norms(const float *c, const float *ref, std::size_t count, void *scratch, cudaStream_t stream) {
  const int blocks = blocks_for(count);
  auto *partials = static_cast<Partial *>(scratch);
  error_norms_kernel<<<blocks, kThreads, 0, stream>>>(c, ref, count, partials);
  SGEMM_CUDA_CHECK(cudaGetLastError());
  static thread_local Partial host[kMaxBlocks];
  SGEMM_CUDA_CHECK(cudaMemcpyAsync(host, partials, sizeof(Partial) * blocks, cudaMemcpyDeviceToHost, stream));
  SGEMM_CUDA_CHECK(cudaStreamSynchronize(stream));
  ErrorNorms norms;
  for (int b = 0; b < blocks; ++b) {
    norms.diff_squared += host[b].diff;
    norms.ref_squared += host[b].ref;
    norms.nonfinite += host[b].nonfinite;
  }
  return norms;
}

}  // namespace sgemm_tune
