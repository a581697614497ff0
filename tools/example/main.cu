// Multiplies with sgemm_tuned() from a generated header, checks every result against
// cuBLAS on the same random operands (beta = 0 over a NaN-filled C, and beta = 0.5), and
// prints both speeds and which of the header's paths served (tuned machine code, a tuned
// tile compiled from source, an edge kernel, or the default tile).
//   sgemm_tuned_example [SHAPE ...]   (default: 4096x4096x4096 1000x1000x1000 4097x513x77 1x1x1)
// A SHAPE is MxNxK (dense row-major, the nine-argument sgemm_tuned) or, as a search space
// writes a BLAS product, MxNxK:OPS or MxNxK:OPS:col (OPS: NN, NT, TN or TT, op(A) then
// op(B); col: column-major), called through the BLAS sgemm_tuned with dense operands.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include SGEMM_TUNED_HEADER

#include "cuda_check.h"
#include "fill.cuh"

void fill_device(float *p, size_t n, unsigned long long seed, float value = 0, bool random = true) {
  fill<<<1024, 256>>>(p, n, seed, value, random);
  CHECK(cudaGetLastError());
}

double relative_error(const float *c, const float *ref, size_t n, size_t *nonfinite) {
  std::vector<float> hc(n), hr(n);
  CHECK(cudaMemcpy(hc.data(), c, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hr.data(), ref, n * sizeof(float), cudaMemcpyDeviceToHost));
  double diff = 0, norm = 0;
  *nonfinite = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(hc[i])) ++*nonfinite;
    const double d = double(hc[i]) - hr[i];
    diff += d * d;
    norm += double(hr[i]) * hr[i];
  }
  if (*nonfinite) return INFINITY;
  return norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
}

// Milliseconds of each of `repeats` launches, timed with events between them, after two
// launches that are not timed.
template <typename F>
std::vector<double> launch_times_ms(F launch, int repeats) {
  for (int i = 0; i < 2; ++i) launch();
  std::vector<cudaEvent_t> ev(repeats + 1);
  for (auto &e : ev) CHECK(cudaEventCreate(&e));
  CHECK(cudaEventRecord(ev[0]));
  for (int i = 0; i < repeats; ++i) {
    launch();
    CHECK(cudaEventRecord(ev[i + 1]));
  }
  CHECK(cudaEventSynchronize(ev[repeats]));
  std::vector<double> ms(repeats);
  for (int i = 0; i < repeats; ++i) {
    float t;
    CHECK(cudaEventElapsedTime(&t, ev[i], ev[i + 1]));
    ms[i] = t;
  }
  for (auto &e : ev) CHECK(cudaEventDestroy(e));
  return ms;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

template <typename F>
double median_ms(F launch, int repeats) {
  return median(launch_times_ms(launch, repeats));
}

// Medians of two kernels timed in alternating rounds, so that a drift of the GPU's clock or
// temperature during the measurement falls on both sides alike instead of on the one timed
// second.
template <typename F, typename G>
std::pair<double, double> paired_medians_ms(F first, G second, int repeats, int rounds = 5) {
  std::vector<double> a, b;
  for (int r = 0; r < rounds; ++r) {
    const int n = repeats / rounds + (r < repeats % rounds ? 1 : 0);
    for (double t : launch_times_ms(first, n)) a.push_back(t);
    for (double t : launch_times_ms(second, n)) b.push_back(t);
  }
  return {median(a), median(b)};
}

// The FP32 FFMA ceiling of this GPU, measured: 8 independent FMA chains per thread, enough
// blocks to fill every SM several times. The yardstick for "percent of the ceiling".
__global__ void ffma_chains(float *out, int iterations, float a, float b) {
  float x[8];
  for (int i = 0; i < 8; ++i) x[i] = threadIdx.x + i;
  // Unrolled 16 deep: 128 FFMAs per loop branch, so the loop's own instructions take about
  // 2% of the issue slots (unrolled 4 deep, as the compiler chose by itself, they took 9%
  // and the "ceiling" came out at 61 TFLOP/s instead of 64).
#pragma unroll 16
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int i = 0; i < 8; ++i) x[i] = fmaf(x[i], a, b);
  }
  float sum = 0;
  for (int i = 0; i < 8; ++i) sum += x[i];
  if (sum == 12345.678f) out[threadIdx.x] = sum;  // keeps the chains alive
}

double ffma_ceiling_tflops() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int blocks = sms * 8, threads = 256, iterations = 1 << 15;
  float *out;
  CHECK(cudaMalloc(&out, threads * sizeof(float)));
  const double ms = median_ms(
      [&] {
        ffma_chains<<<blocks, threads>>>(out, iterations, 0.999f, 0.001f);
        CHECK(cudaGetLastError());
      },
      9);
  CHECK(cudaFree(out));
  return 2.0 * 8 * double(iterations) * blocks * threads / ms / 1e9;
}

// A shape from the command line: sizes, and for a BLAS product its layout and ops.
struct Problem {
  int M = 0, N = 0, K = 0;
  bool blas = false;
  sgemm_tune::Layout layout = sgemm_tune::Layout::RowMajor;
  sgemm_tune::Op op_a = sgemm_tune::Op::NoTrans, op_b = sgemm_tune::Op::NoTrans;
};

// A positive int written in decimal digits alone, at text[*at], up to `end`; false for
// anything else or past INT_MAX.
bool parse_size(const std::string &text, size_t *at, char end, int *out) {
  long long v = 0;
  const size_t start = *at;
  for (; *at < text.size() && text[*at] != end; ++*at) {
    const char c = text[*at];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
    if (v > 2147483647) return false;
  }
  *out = static_cast<int>(v);
  return *at > start && v >= 1;
}

// MxNxK (x or X between the sizes), then optionally :OPS and :col or :row, as a search space
// writes shapes.
bool parse_problem(std::string text, Problem *p) {
  for (char &c : text)
    if (c == 'X') c = 'x';
  size_t at = 0;
  if (!parse_size(text, &at, 'x', &p->M) || at++ == text.size() || !parse_size(text, &at, 'x', &p->N) ||
      at++ == text.size() || !parse_size(text, &at, ':', &p->K))
    return false;
  const std::string rest = text.substr(at);
  if (rest.empty()) return true;
  // ":OPS", then ":col" or ":row" or nothing.
  if (rest.size() < 3 || rest[0] != ':') return false;
  const std::string layout = rest.substr(3);
  if (!layout.empty() && layout != ":col" && layout != ":row") return false;
  for (char c : {rest[1], rest[2]})
    if (c != 'N' && c != 'T') return false;
  p->blas = true;
  p->op_a = rest[1] == 'T' ? sgemm_tune::Op::Trans : sgemm_tune::Op::NoTrans;
  p->op_b = rest[2] == 'T' ? sgemm_tune::Op::Trans : sgemm_tune::Op::NoTrans;
  p->layout = layout == ":col" ? sgemm_tune::Layout::ColMajor : sgemm_tune::Layout::RowMajor;
  return true;
}

int main(int argc, char **argv) {
  std::vector<std::string> shapes;
  for (int i = 1; i < argc; ++i) shapes.push_back(argv[i]);
  if (shapes.empty()) shapes = {"4096x4096x4096", "1000x1000x1000", "4097x513x77", "1x1x1"};
  cublasHandle_t cublas;
  CHECK_CUBLAS(cublasCreate(&cublas));
  int passed = 0, failed = 0;
  const double ceiling = ffma_ceiling_tflops();
  std::printf("FFMA ceiling measured now: %.2f TFLOP/s\n", ceiling);
  std::printf("%-20s %10s %9s %8s %10s %9s %8s %8s %9s %9s  %-6s %s\n", "shape", "tuned ms", "TFLOP/s", "%ceil",
              "cuBLAS ms", "TFLOP/s", "%ceil", "ratio", "err b=0", "err b=.5", "result", "path");
  double log_ratio_sum = 0, lowest_ratio = 1e300;
  for (const std::string &s : shapes) {
    Problem p;
    if (!parse_problem(s, &p)) {
      std::fprintf(stderr, "not a shape: %s (expected MxNxK, MxNxK:OPS or MxNxK:OPS:col)\n", s.c_str());
      return 2;
    }
    const int M = p.M, N = p.N, K = p.K;
    // Dense operands: the least leading dimensions CBLAS allows for the layout and ops.
    const sgemm_tune_kernels::DenseLeadingDims ld =
        sgemm_tune_kernels::dense_leading_dims(p.layout, p.op_a, p.op_b, M, N, K);
    const auto tuned_call = [&](float beta, const float *A, const float *B, float *C) {
      return p.blas ? sgemm_tuned(p.layout, p.op_a, p.op_b, M, N, K, 1.0f, A, ld.lda, B, ld.ldb, beta, C, ld.ldc)
                    : sgemm_tuned(M, N, K, 1.0f, A, B, beta, C);
    };
    const size_t na = size_t(M) * K, nb = size_t(K) * N, nc = size_t(M) * N;
    float *A, *B, *C, *R, *C0;
    CHECK(cudaMalloc(&A, na * 4));
    CHECK(cudaMalloc(&B, nb * 4));
    CHECK(cudaMalloc(&C, nc * 4));
    CHECK(cudaMalloc(&R, nc * 4));
    CHECK(cudaMalloc(&C0, nc * 4));
    fill_device(A, na, 1);
    fill_device(B, nb, 2);
    fill_device(C0, nc, 3);
    // cuBLAS is column-major: a column-major call as it stands, a row-major one as the
    // column-major product of the transposes, C^T = op(B)^T op(A)^T.
    const auto reference = [&](float beta, float *out) {
      const float alpha = 1.0f;
      const cublasOperation_t oa = p.op_a == sgemm_tune::Op::Trans ? CUBLAS_OP_T : CUBLAS_OP_N;
      const cublasOperation_t ob = p.op_b == sgemm_tune::Op::Trans ? CUBLAS_OP_T : CUBLAS_OP_N;
      if (p.layout == sgemm_tune::Layout::ColMajor)
        CHECK_CUBLAS(cublasSgemm(cublas, oa, ob, M, N, K, &alpha, A, ld.lda, B, ld.ldb, &beta, out, ld.ldc));
      else
        CHECK_CUBLAS(cublasSgemm(cublas, ob, oa, N, M, K, &alpha, B, ld.ldb, A, ld.lda, &beta, out, ld.ldc));
    };
    // beta = 0: C starts as NaN and must be overwritten without being read.
    reference(0.0f, R);
    fill_device(C, nc, 0, NAN, false);
    CHECK(tuned_call(0.0f, A, B, C));
    CHECK(cudaDeviceSynchronize());
    size_t bad0 = 0, bad1 = 0;
    const double e0 = relative_error(C, R, nc, &bad0);
    // beta = 0.5 from the same random C.
    CHECK(cudaMemcpy(R, C0, nc * 4, cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy(C, C0, nc * 4, cudaMemcpyDeviceToDevice));
    reference(0.5f, R);
    CHECK(tuned_call(0.5f, A, B, C));
    CHECK(cudaDeviceSynchronize());
    const double e1 = relative_error(C, R, nc, &bad1);
    const bool ok = e0 <= 1e-4 && e1 <= 1e-4;
    sgemm_tune_runtime::Route route{};
    CHECK(sgemm_tune_runtime::route(sgemm_tuned_data::kGpus, int(std::size(sgemm_tuned_data::kGpus)), p.layout, p.op_a,
                                    p.op_b, M, N, K, A, ld.lda, B, ld.ldb, C, ld.ldc, &route));

    const int repeats = nc * size_t(K) > (1ull << 30) ? 20 : 100;
    const auto [tuned, ref] = paired_medians_ms([&] { CHECK(tuned_call(0.0f, A, B, C)); },
                                                [&] { reference(0.0f, R); }, repeats);
    const double flop = 2.0 * M * N * double(K);
    const double tuned_tflops = flop / tuned / 1e9, ref_tflops = flop / ref / 1e9;
    std::printf("%-20s %10.4f %9.2f %7.1f%% %10.4f %9.2f %7.1f%% %7.1f%% %9.1e %9.1e  %-6s %s\n", s.c_str(), tuned,
                tuned_tflops, 100.0 * tuned_tflops / ceiling, ref, ref_tflops, 100.0 * ref_tflops / ceiling,
                100.0 * ref / tuned, e0, e1, ok ? "ok" : "WRONG", sgemm_tune_runtime::path_name(route.path));
    log_ratio_sum += std::log(ref / tuned);
    lowest_ratio = std::min(lowest_ratio, ref / tuned);
    (ok ? passed : failed) += 1;
    for (float *p : {A, B, C, R, C0}) CHECK(cudaFree(p));
  }
  cublasDestroy(cublas);
  std::printf("geometric mean of tuned / cuBLAS speed: %.1f%%, lowest %.1f%%, over %zu shapes\n",
              100.0 * std::exp(log_ratio_sum / shapes.size()), 100.0 * lowest_ratio, shapes.size());
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
