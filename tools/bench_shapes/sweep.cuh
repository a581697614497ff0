// The sweep: every kernel the selection could have picked for each problem, timed. For each
// problem and each tuned entry of the GPU in hand: its fast kernel where it applies, and its
// edge kernel (or, for a transposed B, its kernel of any operands), and the packed path
// wherever packing would change how the operands are read (and the transposed B packed
// alone where that differs from packing every operand), with K split each of the ways
// the selection tries. Each is verified
// (beta = 0 over a NaN-filled C, against cuBLAS) before it is timed. One CSV line per
// (problem, choice), naming what sgemm_tuned itself chose, so that a selection rule can be
// judged offline against the best any entry reaches (the oracle), with no GPU.
//   bench_shapes --sweep [--seed S] [--count N] [--sweep-seconds T] [--graphs]
// With --graphs each choice (and cuBLAS) is timed as CUDA graphs of its calls, captured once
// and replayed (paired_graph_medians_ms's way): the GPU's time without the host's time per
// call, which back to back is most of a small product's (bench/NOTES.md, session 37); a
// choice that cannot be captured gets no time. The CSV says which ("# timing,graphs").
// Included by main.cu after the generated header.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include "bench_common.cuh"
#include "problems.h"

namespace bench_shapes {

// Sums of (got - want)^2 and want^2 over the M x N elements (lines x length, ld apart) into
// sums[0] and sums[1]; a non-finite element of `got` counts 1 into sums[2].
__global__ void squared_error(const float *got, const float *want, int lines, int length, int ld, double *sums) {
  double diff = 0, norm = 0, bad = 0;
  const long long n = static_cast<long long>(lines) * length;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long at = (i / length) * ld + i % length;
    const float g = got[at], w = want[at];
    if (!isfinite(g)) bad += 1;
    const double d = static_cast<double>(g) - w;
    diff += d * d;
    norm += static_cast<double>(w) * w;
  }
  atomicAdd(&sums[0], diff);
  atomicAdd(&sums[1], norm);
  if (bad > 0) atomicAdd(&sums[2], bad);
}

// relative_error's figure, computed on the GPU (the sweep checks thousands of results).
inline double device_relative_error(const BlasCall &c, const float *got, const float *want, double *sums) {
  CHECK(cudaMemset(sums, 0, 3 * sizeof(double)));
  const Stored sc = c.c();
  squared_error<<<264, 256>>>(got, want, sc.lines(c.layout), sc.length(c.layout), c.ldc, sums);
  CHECK(cudaGetLastError());
  double h[3];
  CHECK(cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost));
  if (h[2] > 0) return INFINITY;
  return h[1] > 0 ? std::sqrt(h[0] / h[1]) : std::sqrt(h[0]);
}

// Median milliseconds per launch over three rounds of `launch(stream)`: back to back from the
// host on the legacy default stream where `graph_stream` is null, else replays of one CUDA
// graph of a round's calls captured on `graph_stream` (NaN where they cannot be captured,
// and *why says why).
template <typename F>
double sweep_ms(F launch, cudaStream_t graph_stream, std::string *why) {
  std::vector<double> v;
  if (graph_stream == nullptr) {
    const auto call = [&] { CHECK(launch(cudaStream_t{})); };
    const int n = launches_for(round_ms(call, 1));
    for (int r = 0; r < 3; ++r) v.push_back(round_ms(call, n));
    return median(v);
  }
  int n = 0;
  const cudaGraphExec_t exec = capture_sized_round(launch, graph_stream, &n, why);
  if (exec == nullptr) return NAN;
  for (int r = 0; r < 3; ++r) v.push_back(graph_round_ms(exec, n, graph_stream));
  CHECK(cudaGraphExecDestroy(exec));
  return median(v);
}

inline const char *path_kind(sgemm_tune_runtime::Path p) {
  using sgemm_tune_runtime::Path;
  switch (p) {
    case Path::tuned_cubin:
    case Path::tuned_source: return "fast";
    case Path::tuned_edges_cubin:
    case Path::tuned_edges_source: return "edge";
    case Path::tuned_any_cubin:
    case Path::tuned_any_source: return "any";
    case Path::tuned_packed_cubin:
    case Path::tuned_packed_source: return "packed";
    case Path::tuned_packed_transposed_cubin:
    case Path::tuned_packed_transposed_source: return "packed-transposed";
    default: return "default";
  }
}

// Products that take longer than this on cuBLAS try K split at most kLongSplits ways, and
// only choices predicted within kLongPredicted of the best prediction: a sweep of the 8192^3
// suite shape at every split would take minutes and teach nothing.
constexpr double kLongMs = 0.5;
constexpr int kLongSplits = 4;
constexpr double kLongPredicted = 3.0;

// Returns the number of choices that failed verification. `graph_stream`: null to time back
// to back, else the stream (not the legacy default one) to capture and replay graphs on.
inline int run_sweep(cublasHandle_t h, const std::vector<Problem> &problems, uint64_t seed, double budget_seconds,
                     cudaStream_t graph_stream = nullptr) {
  namespace rt = sgemm_tune_runtime;
  namespace k = sgemm_tune_kernels;
  int device = 0;
  CHECK(cudaGetDevice(&device));
  const rt::DeviceTable found = rt::table_for_device(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, device);
  if (found.table == nullptr) {
    std::printf("# the header holds no tunings for this GPU: nothing to sweep\n");
    return 0;
  }
  const rt::GpuTable &table = *found.table;
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  std::printf("# entries of %s (rule %s)\n", table.name, rt::table_rule_name(found.rule));
  std::printf("entry,M,N,K,BM,BN,BK,WM,WN,WNITER,TM,TN,STAGES,PREFETCH,STREAMK,tflops,percent_of_cublas,"
              "blocks_per_sm,rate_M,rate_N,rate_K,rate_tflops,blas_product,blas_ops\n");
  for (int i = 0; i < table.count; ++i) {
    const k::TunedShape &s = table.kernels[i].shape;
    const k::SgemmTile &t = s.tile;
    std::printf("entry,%lld,%lld,%lld,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.4f,%.2f,%d,%lld,%lld,%lld,%.4f,%d,%u\n", s.M,
                s.N, s.K, t.BM, t.BN, t.BK, t.WM, t.WN, t.WNITER, t.TM, t.TN, t.STAGES, t.PREFETCH, t.STREAMK, s.tflops,
                s.percent_of_cublas, s.blocks_per_sm, s.rate_M, s.rate_N, s.rate_K, s.rate_tflops,
                s.blas_product ? 1 : 0, s.blas_ops);
  }
  std::printf("# sms,%d\n", sms);
  // The clusters this GPU holds at once at one block per SM, which the selection holds a
  // split as clusters to (replay_sweep reads them back); only where the GPU said.
  const k::ClusterSlots *slots = rt::device_cluster_slots(device);
  if (slots && slots->measured) {
    std::printf("# cluster_slots");
    for (int size = 2; size <= k::kMaxClusterSplit; ++size) std::printf(",%d", slots->at_once[size]);
    std::printf("\n");
  }
  std::printf("# timing,%s\n", graph_stream != nullptr ? "graphs" : "stream");
  std::printf("choice,problem,set,layout,ops,M,N,K,lda,ldb,ldc,offset,cublas_ms,chosen_entry,chosen_kernel,"
              "chosen_splits,entry,kernel,splits,predicted_ms,ms,error\n");
  double *sums = nullptr;
  CHECK(cudaMalloc(&sums, 3 * sizeof(double)));
  // Every split the selection weighs, and the edge kernel's tail split (splits 0).
  std::vector<int> split_list(std::begin(k::detail::kSplitChoices), std::end(k::detail::kSplitChoices));
  split_list.insert(split_list.begin(), k::kEdgeTailSplit);
  const auto start = std::chrono::steady_clock::now();
  int failures = 0, timed = 0, uncaptured = 0;
  for (size_t pi = 0; pi < problems.size(); ++pi) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > budget_seconds) {
      std::printf("# stopped after %zu of %zu problems: the sweep's %.0f s were spent\n", pi, problems.size(),
                  budget_seconds);
      break;
    }
    const Problem &p = problems[pi];
    const BlasCall &c = p.call;
    const Buffer a(p.offset, c.a().extent(c.layout, c.lda)), b(p.offset, c.b().extent(c.layout, c.ldb));
    const size_t extent_c = c.c().extent(c.layout, c.ldc);
    const Buffer out(p.offset, extent_c), ref(p.offset, extent_c);
    const unsigned long long data_seed = (seed << 20) ^ (pi + 1) * 0x100;
    a.fill_random(data_seed ^ 0xa);
    b.fill_random(data_seed ^ 0xb);
    const float *A = a.operand(), *B = b.operand();
    float *C = out.operand(), *R = ref.operand();
    cublas_sgemm(h, c, A, B, 0.0f, R);
    CHECK(cudaDeviceSynchronize());  // the operands' fills and the reference, before any other stream reads them
    // cuBLAS on the graph stream only while it is timed there: the reference above, and the
    // next problem's, stay on the legacy default stream with the fills.
    std::string why;
    cublasStatus_t cublas_failed = CUBLAS_STATUS_SUCCESS;
    if (graph_stream != nullptr) CHECK_CUBLAS(cublasSetStream(h, graph_stream));
    const double cublas_ms = sweep_ms(
        [&](cudaStream_t) {
          const cublasStatus_t st = cublas_sgemm_status(h, c, A, B, 0.0f, R);
          if (graph_stream == nullptr) CHECK_CUBLAS(st);  // back to back, as before: a failure ends it
          return cublas_as_cuda_error(st, &cublas_failed);
        },
        graph_stream, &why);
    if (graph_stream != nullptr) CHECK_CUBLAS(cublasSetStream(h, nullptr));
    if (std::isnan(cublas_ms)) {  // a ratio needs cuBLAS's time: the problem is left out, and says why
      std::printf("# untimed,problem %zu,cuBLAS,%s (cuBLAS status %d)\n", pi + 1, why.c_str(), int(cublas_failed));
      continue;
    }
    const k::RowMajorGemm g =
        k::to_row_major(c.layout, c.op_a, c.op_b, c.M, c.N, c.K, kAlpha, A, c.lda, B, c.ldb, 0.0f, C, c.ldc);
    if (k::check_gemm(g) != k::GemmCheck::run) continue;

    rt::Route chosen{};
    int chosen_entry = -1;
    if (rt::route(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, g, &chosen) == cudaSuccess &&
        chosen.kernel != nullptr)
      chosen_entry = static_cast<int>(chosen.kernel - table.kernels);

    // Every choice the selection weighs, packed and unpacked where the operands need either.
    std::vector<rt::Route> routes;
    const bool packable = rt::packable(g);
    for (int e = 0; e < table.count; ++e) {
      rt::Route r{};
      if (rt::route_choice(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, g, e, false, 1, rt::Packing::never,
                           &r) == cudaSuccess)
        routes.push_back(r);
      for (int splits : split_list) {
        if (cublas_ms > kLongMs && splits > kLongSplits) continue;
        if (rt::route_choice(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, g, e, true, splits,
                             rt::Packing::never, &r) == cudaSuccess)
          routes.push_back(r);
        if (packable && rt::route_choice(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, g, e, true, splits,
                                    rt::Packing::always, &r) == cudaSuccess &&
            (r.path == rt::Path::tuned_packed_cubin || r.path == rt::Path::tuned_packed_source))
          routes.push_back(r);
        if (packable && rt::route_choice(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, g, e, true, splits,
                                    rt::Packing::transposed_only, &r) == cudaSuccess &&
            (r.path == rt::Path::tuned_packed_transposed_cubin || r.path == rt::Path::tuned_packed_transposed_source))
          routes.push_back(r);
      }
    }
    double best_predicted = INFINITY;
    for (const rt::Route &r : routes) best_predicted = std::min(best_predicted, r.predicted_ps);

    for (const rt::Route &r : routes) {
      if (cublas_ms > kLongMs && r.predicted_ps > kLongPredicted * best_predicted) continue;
      out.fill_nan();
      double ms = NAN, error = INFINITY;
      const cudaError_t status = rt::launch_route(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, r, g, 0);
      CHECK(cudaDeviceSynchronize());
      if (status == cudaSuccess) error = device_relative_error(c, C, R, sums);
      if (status == cudaSuccess && error < kTolerance) {
        ms = sweep_ms(
            [&](cudaStream_t s) {
              return rt::launch_route(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, r, g, s);
            },
            graph_stream, &why);
        if (std::isnan(ms)) {
          ++uncaptured;
          std::printf("# untimed,problem %zu,entry %d,%s/%d,%s\n", pi + 1, static_cast<int>(r.kernel - table.kernels),
                      path_kind(r.path), r.splits, why.c_str());
        } else {
          ++timed;
        }
      } else {
        ++failures;
      }
      std::printf("choice,%zu,%s,%s,%c%c,%d,%d,%d,%d,%d,%d,%d,%.5f,%d,%s,%d,%d,%s,%d,%.5f,%.5f,%.1e\n", pi + 1,
                  set_name(p), layout_name(c.layout), op_name(c.op_a),
                  op_name(c.op_b), c.M, c.N, c.K, c.lda, c.ldb, c.ldc, p.offset, cublas_ms, chosen_entry,
                  chosen_entry >= 0 ? path_kind(chosen.path) : "default", chosen.splits,
                  static_cast<int>(r.kernel - table.kernels), path_kind(r.path), r.splits, r.predicted_ps * 1e-9, ms,
                  error);
    }
  }
  CHECK(cudaFree(sums));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (graph_stream != nullptr) std::printf("# %d choices could not be captured (untimed lines above)\n", uncaptured);
  std::printf("# %d choices timed, %d failed verification, %.0f s\n", timed, failures, seconds);
  return failures;
}

}  // namespace bench_shapes
