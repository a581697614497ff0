// What the benchmark's two modes share: device buffers for operands at an offset, the
// cuBLAS call of a problem, the error of a result against cuBLAS's, and timing in rounds of
// back-to-back launches between two events.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "../example/cuda_check.h"
#include "../example/fill.cuh"
#include "blas_mapping.h"

namespace bench_shapes {

constexpr float kAlpha = 0.75f;
constexpr double kTolerance = 1e-4;
constexpr int kRounds = 5;         // alternating rounds per side; the median is reported
constexpr double kRoundMs = 2.0;   // each round launches until about this much GPU time
constexpr int kMaxLaunches = 1000; // per round, for products that take microseconds

// Device memory for one operand: `offset` floats, then the operand's extent (at least one
// float), so that the operand starts `offset` floats past cudaMalloc's alignment.
class Buffer {
 public:
  Buffer(int offset, size_t extent) : offset_(offset), size_(offset + std::max<size_t>(extent, 1)) {
    CHECK(cudaMalloc(&base_, size_ * sizeof(float)));
  }
  ~Buffer() { cudaFree(base_); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  float *operand() const { return base_ + offset_; }
  void fill_random(unsigned long long seed) const {
    fill<<<1024, 256>>>(base_, size_, seed, 0.0f, true);
    CHECK(cudaGetLastError());
  }
  void fill_nan() const {
    fill<<<1024, 256>>>(base_, size_, 0, NAN, false);
    CHECK(cudaGetLastError());
  }
  void copy_from(const Buffer &other) const {
    CHECK(cudaMemcpy(base_, other.base_, size_ * sizeof(float), cudaMemcpyDeviceToDevice));
  }
  std::vector<float> read_operand() const {
    std::vector<float> h(size_ - offset_);
    CHECK(cudaMemcpy(h.data(), operand(), h.size() * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
  }

 private:
  float *base_ = nullptr;
  int offset_;
  size_t size_;
};

inline cublasOperation_t cublas_op(Op o) { return o == Op::Trans ? CUBLAS_OP_T : CUBLAS_OP_N; }

// The product of `c` by cuBLAS, through the column-major call --self-test checks.
inline void cublas_sgemm(cublasHandle_t h, const BlasCall &c, const float *A, const float *B, float beta, float *C) {
  const ColumnMajorCall cm = column_major_call(c);
  CHECK_CUBLAS(cublasSgemm(h, cublas_op(cm.op_first), cublas_op(cm.op_second), cm.m, cm.n, cm.k, &kAlpha,
                           cm.swapped ? B : A, cm.ld_first, cm.swapped ? A : B, cm.ld_second, &beta, C, cm.ldc));
}


// Relative Frobenius error of C against the reference over the M x N elements (padding
// between lines is not part of the product); infinite when C holds a NaN or infinity.
inline double relative_error(const BlasCall &c, const Buffer &got, const Buffer &want) {
  const std::vector<float> g = got.read_operand(), w = want.read_operand();
  const Stored sc = c.c();
  double diff = 0, norm = 0;
  for (int line = 0; line < sc.lines(c.layout); ++line)
    for (int i = 0; i < sc.length(c.layout); ++i) {
      const size_t at = size_t(line) * c.ldc + i;
      if (!std::isfinite(g[at])) return INFINITY;
      const double d = double(g[at]) - w[at];
      diff += d * d;
      norm += double(w[at]) * w[at];
    }
  return norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
}

// Milliseconds per launch over `launches` back-to-back launches between two events.
template <typename F>
double round_ms(F launch, int launches) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  for (int i = 0; i < launches; ++i) launch();
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return ms / launches;
}

inline int launches_for(double ms_per_launch) {
  const double n = std::ceil(kRoundMs / std::max(ms_per_launch, 1e-4));
  return int(std::min<double>(std::max(n, 1.0), kMaxLaunches));
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Median milliseconds per launch of two sides timed in alternating rounds, so that a drift of
// the GPU's clock or temperature falls on both alike. One launch of each (after the
// verification, which loaded every module) sizes the rounds: big products get one launch a
// round, small ones enough for about kRoundMs.
template <typename F, typename G>
std::pair<double, double> paired_medians_ms(F first, G second) {
  const int n1 = launches_for(round_ms(first, 1)), n2 = launches_for(round_ms(second, 1));
  std::vector<double> a, b;
  for (int r = 0; r < kRounds; ++r) {
    a.push_back(round_ms(first, n1));
    b.push_back(round_ms(second, n2));
  }
  return {median(a), median(b)};
}

}  // namespace bench_shapes
