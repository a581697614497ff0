// What the benchmark's two modes share: device buffers for operands at an offset, the
// cuBLAS call of a problem, the error of a result against cuBLAS's, and timing in rounds of
// back-to-back launches between two events (or, with --graphs, of one CUDA graph holding a
// round's launches).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
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

// The product of `c` by cuBLAS, through the column-major call --self-test checks, on the
// handle's stream; its status.
inline cublasStatus_t cublas_sgemm_status(cublasHandle_t h, const BlasCall &c, const float *A, const float *B,
                                          float beta, float *C) {
  const ColumnMajorCall cm = column_major_call(c);
  return cublasSgemm(h, cublas_op(cm.op_first), cublas_op(cm.op_second), cm.m, cm.n, cm.k, &kAlpha,
                     cm.swapped ? B : A, cm.ld_first, cm.swapped ? A : B, cm.ld_second, &beta, C, cm.ldc);
}

// The same, ending the program where cuBLAS fails.
inline void cublas_sgemm(cublasHandle_t h, const BlasCall &c, const float *A, const float *B, float beta, float *C) {
  CHECK_CUBLAS(cublas_sgemm_status(h, c, A, B, beta, C));
}

// A cuBLAS status as the CUDA error that code taking launches expects (a graph's capture),
// a failure keeping its status in *failed so that what is reported can name it.
inline cudaError_t cublas_as_cuda_error(cublasStatus_t status, cublasStatus_t *failed) {
  if (status == CUBLAS_STATUS_SUCCESS) return cudaSuccess;
  *failed = status;
  return cudaErrorUnknown;
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

// Milliseconds between two events on `stream` around what `enqueue` puts on it, waited for.
template <typename F>
double events_ms(cudaStream_t stream, F enqueue) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, stream));
  enqueue();
  CHECK(cudaEventRecord(stop, stream));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return ms;
}

// Milliseconds per launch over `launches` back-to-back launches on the legacy default stream.
template <typename F>
double round_ms(F launch, int launches) {
  return events_ms(nullptr, [&] {
           for (int i = 0; i < launches; ++i) launch();
         }) /
         launches;
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

// A round of `launches` calls of `launch(stream)` captured into one CUDA graph and
// instantiated; nullptr where that failed, with *why saying at which step and with what
// error: a call's own error first (the capture it broke then reports only that it was
// invalidated). Nothing is left captured: the capture is always ended.
template <typename F>
cudaGraphExec_t capture_round(F launch, int launches, cudaStream_t stream, std::string *why) {
  cudaGraph_t graph = nullptr;
  cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
  const char *step = "beginning the capture";
  if (e == cudaSuccess) {
    cudaError_t call = cudaSuccess;
    for (int i = 0; i < launches && call == cudaSuccess; ++i) call = launch(stream);
    const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
    e = call != cudaSuccess ? call : ended;
    step = call != cudaSuccess ? "a call under capture" : "ending the capture";
  }
  cudaGraphExec_t exec = nullptr;
  if (e == cudaSuccess) {
    e = cudaGraphInstantiate(&exec, graph, 0);
    step = "instantiating the graph";
  }
  if (graph != nullptr) cudaGraphDestroy(graph);
  if (e == cudaSuccess) return exec;
  cudaGetLastError();  // the failure's own error, reported through *why, not left for the next check
  *why = std::string("no graph: ") + step + " returned " + cudaGetErrorName(e);
  return nullptr;
}

// Milliseconds per launch of one replay of `exec` (a round of `launches` calls) on `stream`.
inline double graph_round_ms(cudaGraphExec_t exec, int launches, cudaStream_t stream) {
  return events_ms(stream, [&] { CHECK(cudaGraphLaunch(exec, stream)); }) / launches;
}

// capture_round of as many calls as a back-to-back round would make (launches_for one call's
// time on `stream`), that number in *launches.
template <typename F>
cudaGraphExec_t capture_sized_round(F launch, cudaStream_t stream, int *launches, std::string *why) {
  *launches = launches_for(events_ms(stream, [&] { CHECK(launch(stream)); }));
  return capture_round(launch, *launches, stream, why);
}

// paired_medians_ms's rounds as CUDA graphs: each side's round is captured once (as many
// calls as paired_medians_ms would launch) and replayed kRounds times in alternating order,
// so that the host's time per call (cuBLAS's heuristics, the header's selection, the launch
// itself) is out of the figure and the GPU's time remains; what a program that replays its
// products in a graph sees. The calls run on `stream`, which must not be the legacy default
// stream (it cannot be captured). NaNs, and which side and why in *why, where a side could
// not be captured.
template <typename F, typename G>
std::pair<double, double> paired_graph_medians_ms(F first, G second, cudaStream_t stream, std::string *why) {
  int n1 = 0, n2 = 0;
  std::string why1, why2;
  cudaGraphExec_t g1 = capture_sized_round(first, stream, &n1, &why1);
  cudaGraphExec_t g2 = capture_sized_round(second, stream, &n2, &why2);
  std::pair<double, double> result{NAN, NAN};
  if (g1 != nullptr && g2 != nullptr) {
    std::vector<double> a, b;
    for (int r = 0; r < kRounds; ++r) {
      a.push_back(graph_round_ms(g1, n1, stream));
      b.push_back(graph_round_ms(g2, n2, stream));
    }
    result = {median(a), median(b)};
  } else {
    *why = g1 == nullptr ? "tuned side, " + why1 : "cuBLAS side, " + why2;
  }
  if (g1 != nullptr) CHECK(cudaGraphExecDestroy(g1));
  if (g2 != nullptr) CHECK(cudaGraphExecDestroy(g2));
  return result;
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
