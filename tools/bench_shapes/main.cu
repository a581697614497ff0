// Shapes nobody tuned: a seeded random set of problems in every layout and op pair, some with
// padded leading dimensions or unaligned operands, and the tuned suite's shapes, each run by
// sgemm_tuned() from a generated header and by the equivalent cublasSgemm on the same
// operands. Both are verified (beta = 0 over a NaN-filled C, and beta = 0.5, relative
// Frobenius error against cuBLAS) and timed in alternating rounds. One line per problem, then
// geometric means of cuBLAS time / tuned time and the worst problem; exit 1 if any failed.
//   bench_shapes [--seed S] [--count N]   (default seed 1, 48 random problems; needs a GPU)
//   bench_shapes --self-test [--seed S] [--count N]   the cuBLAS mapping and the problem set, no GPU
//   bench_shapes --sweep [--seed S] [--count N] [--sweep-seconds T] [--graphs]   every kernel the
//       selection could pick for each problem, verified and timed, as CSV (sweep.cuh)
// and, to look at a few problems under a profiler (ncu),
//   --only I,J,...   run only these problems, by their numbers in the full set's table
//   --problems FILE  the problems of FILE (read_problem_list in problems.h) in place of the
//                    random, suite and named sets: an experiment on chosen products
//   --verify-only    verify each problem (two calls per side: beta 0, then 0.5) and time nothing
// and --beta B times the calls with beta = B (default 0; each timed call then reads C, which
// starts as each side's verified beta = 0.5 result): what an epilogue that reads C costs;
// --graphs times each side's round as one CUDA graph of its calls, captured once and replayed
// (paired_graph_medians_ms): the GPU's time without the host's between calls (the sweep's
// choices too);
// --dispatch predicted|measured sets the header's sgemm_tune::Dispatch (default: what
// SGEMM_TUNE_DISPATCH says, else predicted). Each problem's first call, the one that chooses
// its kernel, is timed apart ("first ms": until the GPU is done with it), and "timed" says
// how many kernels were timed to choose (0: the prediction chose).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include SGEMM_TUNED_HEADER

#include "bench_common.cuh"
#include "problems.h"
#include "self_test.h"
#include "sweep.cuh"

namespace {

using namespace bench_shapes;

cudaError_t tuned_sgemm(const BlasCall &c, const float *A, const float *B, float beta, float *C,
                        cudaStream_t stream = 0) {
  return sgemm_tuned(c.layout, c.op_a, c.op_b, c.M, c.N, c.K, kAlpha, A, c.lda, B, c.ldb, beta, C, c.ldc, stream);
}

// How the timed calls are timed: rounds of back-to-back calls from the host (the default:
// what a program calling the product in a loop sees), or rounds replayed as CUDA graphs
// (--graphs: the GPU's time alone) on `stream`.
struct Timing {
  bool graphs = false;
  cudaStream_t stream = nullptr;
};

struct Outcome {
  double tuned_ms = NAN, cublas_ms = NAN;
  double error_beta0 = INFINITY, error_beta = INFINITY;
  cudaError_t status = cudaSuccess;  // of sgemm_tuned, the first call that was not cudaSuccess
  const char *path = "?";
  int splits = 1;             // K split this many ways
  int candidates_timed = 0;   // kernels timed to choose the route (Route::timed)
  double first_ms = NAN;      // the first call, host and GPU, until the GPU is done with it
  double predicted_ms = NAN;  // the selection's predicted time (not for an exact match)
  std::string tile = "-";     // the tuned entry's tile, as tile_name writes it; "-": no tuned entry
  std::string timing_note;    // why the problem is not timed as asked (a graph that could not be captured)
  bool ok() const { return status == cudaSuccess && error_beta0 < kTolerance && error_beta < kTolerance; }
  bool timed() const { return std::isfinite(tuned_ms) && std::isfinite(cublas_ms); }
  double ratio() const { return cublas_ms / tuned_ms; }
};

// A tile in one word, for the table's last column: block BMxBNxBK, warp wWMxWN, nWNITER,
// thread tile tTMxTN, sSTAGES, pPREFETCH, kSTREAMK ("64x128x32/w64x32/n2/t4x4/s2/p1/k0"), so
// that a change measured through the header can be read tile by tile.
std::string tile_name(const sgemm_tune_kernels::SgemmTile &t) {
  char text[96];
  std::snprintf(text, sizeof text, "%dx%dx%d/w%dx%d/n%d/t%dx%d/s%d/p%d/k%d", t.BM, t.BN, t.BK, t.WM, t.WN, t.WNITER,
                t.TM, t.TN, t.STAGES, t.PREFETCH, t.STREAMK);
  return text;
}

Outcome run_problem(cublasHandle_t h, const Problem &p, unsigned long long data_seed, bool timed, float timed_beta,
                    const Timing &timing) {
  const BlasCall &c = p.call;
  const Layout l = c.layout;
  const Buffer a(p.offset, c.a().extent(l, c.lda)), b(p.offset, c.b().extent(l, c.ldb));
  const size_t extent_c = c.c().extent(l, c.ldc);
  const Buffer out(p.offset, extent_c), ref(p.offset, extent_c), start(p.offset, extent_c);
  a.fill_random(data_seed ^ 0xa);
  b.fill_random(data_seed ^ 0xb);
  start.fill_random(data_seed ^ 0xc);
  const float *A = a.operand(), *B = b.operand();
  float *C = out.operand(), *R = ref.operand();
  Outcome o;
  const auto keep_first_error = [&o](cudaError_t e) {
    if (o.status == cudaSuccess) o.status = e;
  };

  // beta = 0: C starts as NaN and must be overwritten without being read.
  out.fill_nan();
  ref.fill_nan();
  CHECK(cudaDeviceSynchronize());
  const auto first_start = std::chrono::steady_clock::now();
  keep_first_error(tuned_sgemm(c, A, B, 0.0f, C));
  CHECK(cudaDeviceSynchronize());
  o.first_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - first_start).count();
  cublas_sgemm(h, c, A, B, 0.0f, R);
  CHECK(cudaDeviceSynchronize());
  o.error_beta0 = relative_error(c, out, ref);
  // beta = 0.5 from the same random C.
  out.copy_from(start);
  ref.copy_from(start);
  keep_first_error(tuned_sgemm(c, A, B, 0.5f, C));
  cublas_sgemm(h, c, A, B, 0.5f, R);
  CHECK(cudaDeviceSynchronize());
  o.error_beta = relative_error(c, out, ref);

  sgemm_tune_runtime::Route route{};
  if (sgemm_tune_runtime::route(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, l, c.op_a, c.op_b, c.M, c.N,
                                c.K, A, c.lda, B, c.ldb, C, c.ldc, &route) == cudaSuccess)
  {
    o.path = sgemm_tune_runtime::path_name(route.path);
    o.splits = route.splits;
    o.candidates_timed = route.timed;
    if (route.predicted_ps > 0) o.predicted_ms = route.predicted_ps * 1e-9;
    if (route.kernel != nullptr) o.tile = tile_name(route.kernel->shape.tile);
  }
  if (o.status != cudaSuccess || !timed) return o;

  // With beta != 0 the timed calls read C and change it from call to call; with |beta| <= 1
  // it grows at most linearly with the calls, so it stays finite over the rounds.
  if (timing.graphs) {
    CHECK_CUBLAS(cublasSetStream(h, timing.stream));
    cublasStatus_t cublas_failed = CUBLAS_STATUS_SUCCESS;
    const auto [tuned, reference] = paired_graph_medians_ms(
        [&](cudaStream_t s) { return tuned_sgemm(c, A, B, timed_beta, C, s); },
        [&](cudaStream_t) {
          return cublas_as_cuda_error(cublas_sgemm_status(h, c, A, B, timed_beta, R), &cublas_failed);
        },
        timing.stream, &o.timing_note);
    CHECK_CUBLAS(cublasSetStream(h, nullptr));
    if (cublas_failed != CUBLAS_STATUS_SUCCESS)
      o.timing_note += " (cuBLAS status " + std::to_string(int(cublas_failed)) + ")";
    o.tuned_ms = tuned;
    o.cublas_ms = reference;
    return o;
  }
  const auto [tuned, reference] = paired_medians_ms([&] { CHECK(tuned_sgemm(c, A, B, timed_beta, C)); },
                                                    [&] { cublas_sgemm(h, c, A, B, timed_beta, R); });
  o.tuned_ms = tuned;
  o.cublas_ms = reference;
  return o;
}

std::string describe(const Problem &p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s %c%c %dx%dx%d", layout_name(p.call.layout), op_name(p.call.op_a),
                op_name(p.call.op_b), p.call.M, p.call.N, p.call.K);
  return buf;
}

// The geometric mean of the ratios of the timed problems `select` picks, in percent ("-" if none).
template <typename Select>
std::string geometric_mean(const std::vector<Problem> &problems, const std::vector<Outcome> &outcomes,
                           Select select) {
  double log_sum = 0;
  int n = 0;
  for (size_t i = 0; i < problems.size(); ++i)
    if (select(problems[i]) && outcomes[i].timed()) {
      log_sum += std::log(outcomes[i].ratio());
      ++n;
    }
  char buf[64];
  if (n == 0) return "- (none timed)";
  std::snprintf(buf, sizeof buf, "%.1f%% over %d", 100.0 * std::exp(log_sum / n), n);
  return buf;
}

// "I,J,...": problem numbers, 1-based as the table prints them, into (*only)[number - 1];
// whether the list is well formed (the set's size is checked once the set is made).
bool parse_problem_numbers(const char *list, std::vector<bool> *only) {
  const char *p = list;
  for (;;) {
    char *end = nullptr;
    const long n = std::strtol(p, &end, 10);
    if (end == p || n < 1 || n > 1000000) return false;
    if (only->size() < size_t(n)) only->resize(size_t(n), false);
    (*only)[size_t(n) - 1] = true;
    if (*end == '\0') return true;
    if (*end != ',') return false;
    p = end + 1;
  }
}

int usage() {
  std::fprintf(stderr, "usage: bench_shapes [--self-test | --sweep [--sweep-seconds T]] [--seed S] [--count N] "
                       "[--only I,J,...] [--problems FILE] [--verify-only] [--beta B] [--graphs] "
                       "[--dispatch predicted|measured]\n");
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  uint64_t seed = 1;
  int count = 48;
  bool self_test = false, sweep = false, verify_only = false;
  Timing timing;
  float timed_beta = 0.0f;
  std::vector<bool> only;  // only[i]: problem number i + 1 was named by --only (empty: all of them)
  double sweep_seconds = 300;
  std::string problem_list;  // --problems: a file of problems in place of the generated sets
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--self-test") {
      self_test = true;
      continue;
    }
    if (arg == "--sweep") {
      sweep = true;
      continue;
    }
    if (arg == "--verify-only") {
      verify_only = true;
      continue;
    }
    if (arg == "--graphs") {
      timing.graphs = true;
      continue;
    }
    if (i + 1 >= argc) return usage();
    char *end = nullptr;
    const char *value = argv[++i];
    if (arg == "--seed") {
      seed = std::strtoull(value, &end, 10);
    } else if (arg == "--count") {
      const long n = std::strtol(value, &end, 10);
      if (n < 0 || n > 100000) return usage();
      count = int(n);
    } else if (arg == "--beta") {
      const double b = std::strtod(value, &end);
      if (!(b >= -1.0 && b <= 1.0)) return usage();  // |beta| <= 1: C stays finite over the rounds
      timed_beta = static_cast<float>(b);
    } else if (arg == "--dispatch") {
      const std::string d = value;
      if (d != "predicted" && d != "measured") return usage();
      sgemm_tune::set_dispatch(d == "measured" ? sgemm_tune::Dispatch::measured : sgemm_tune::Dispatch::predicted);
      continue;
    } else if (arg == "--problems") {
      problem_list = value;
      continue;
    } else if (arg == "--only") {
      if (!parse_problem_numbers(value, &only)) return usage();
      continue;
    } else if (arg == "--sweep-seconds") {
      sweep_seconds = std::strtod(value, &end);
      if (!(sweep_seconds > 0)) return usage();
    } else {
      return usage();
    }
    if (end == value || *end != '\0') return usage();
  }
  // The options that choose and time problems mean nothing to the host-side check and the
  // sweep: refused there rather than ignored.
  if ((self_test || sweep) && (!only.empty() || verify_only || timed_beta != 0.0f)) {
    std::fprintf(stderr, "bench_shapes: --only, --verify-only and --beta go with neither --self-test nor --sweep\n");
    return 2;
  }
  if ((self_test || verify_only) && timing.graphs) {
    std::fprintf(stderr, "bench_shapes: --graphs says how to time, and %s times nothing\n",
                 self_test ? "--self-test" : "--verify-only");
    return 2;
  }
  std::vector<Problem> problems;
  if (problem_list.empty()) {
    problems = make_problems(seed, count);
  } else {
    std::string error;
    if (!read_problem_list(problem_list, &problems, &error)) {
      std::fprintf(stderr, "bench_shapes: --problems %s\n", error.c_str());
      return 2;
    }
  }
  if (self_test) {
    const int failures = run_self_test();
    describe_problems(problems);
    return failures ? 1 : 0;
  }
  if (only.size() > problems.size()) {
    std::fprintf(stderr, "bench_shapes: --only names problem %zu; the set has %zu\n", only.size(), problems.size());
    return 2;
  }
  const auto selected = [&only](size_t i) { return only.empty() || (i < only.size() && only[i]); };
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  cublasHandle_t cublas;
  CHECK_CUBLAS(cublasCreate(&cublas));
  // A stream of its own for --graphs: the legacy default stream cannot be captured.
  if (timing.graphs) CHECK(cudaStreamCreateWithFlags(&timing.stream, cudaStreamNonBlocking));
  std::printf("GPU: %s; seed %llu\n", prop.name, static_cast<unsigned long long>(seed));
  if (sweep) {
    const int failures = run_sweep(cublas, problems, seed, sweep_seconds, timing.stream);
    if (timing.stream != nullptr) CHECK(cudaStreamDestroy(timing.stream));
    CHECK_CUBLAS(cublasDestroy(cublas));
    return failures ? 1 : 0;
  }
  describe_problems(problems);
  if (verify_only)
    std::printf("verified only, not timed (tuned ms, cuBLAS ms and ratio are nan); errors are relative Frobenius "
                "norms against cuBLAS, beta = 0 over NaN and beta = 0.5; alpha = %g\n",
                kAlpha);
  else
    std::printf("ratio = cuBLAS time / tuned time, timed at beta = %g%s; errors are relative Frobenius norms "
                "against cuBLAS, beta = 0 over NaN and beta = 0.5; alpha = %g\n",
                timed_beta, timing.graphs ? " in rounds replayed as CUDA graphs (GPU time only)" : "", kAlpha);
  std::printf("dispatch: %s\n", sgemm_tune::dispatch() == sgemm_tune::Dispatch::measured ? "measured" : "predicted");
  std::printf("%4s %-6s %-3s %2s %5s %5s %5s %5s %5s %5s %3s %10s %10s %7s %8s %8s %-4s %-16s %5s %10s %10s %5s %s\n",
              "#", "set", "lay", "op", "M", "N", "K", "lda", "ldb", "ldc", "off", "tuned ms", "cuBLAS ms", "ratio",
              "err b=0", "err b=.5", "ok", "path", "split", "pred ms", "first ms", "timed", "tile");
  std::vector<Outcome> outcomes;
  int passed = 0, failed = 0;
  const auto wall_start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < problems.size(); ++i) {
    if (!selected(i)) {
      outcomes.emplace_back();  // untimed: left out of every mean below
      continue;
    }
    const Problem &p = problems[i];
    const BlasCall &c = p.call;
    const Outcome o = run_problem(cublas, p, (seed << 20) ^ (i + 1) * 0x100, !verify_only, timed_beta, timing);
    outcomes.push_back(o);
    (o.ok() ? passed : failed) += 1;
    std::printf("%4zu %-6s %-3s %c%c %5d %5d %5d %5d %5d %5d %3d %10.4f %10.4f %6.1f%% %8.1e %8.1e %-4s %-16s %5d %10.4f "
                "%10.3f %5d %s",
                i + 1, set_name(p), layout_name(c.layout), op_name(c.op_a), op_name(c.op_b), c.M, c.N,
                c.K, c.lda, c.ldb, c.ldc, p.offset, o.tuned_ms, o.cublas_ms, 100.0 * o.ratio(), o.error_beta0,
                o.error_beta, o.ok() ? "ok" : "FAIL", o.path, o.splits, o.predicted_ms, o.first_ms,
                o.candidates_timed, o.tile.c_str());
    if (o.status != cudaSuccess) std::printf(" (sgemm_tuned returned %s)", cudaGetErrorName(o.status));
    if (!o.timing_note.empty()) std::printf(" (%s)", o.timing_note.c_str());
    std::printf("\n");
  }
  CHECK_CUBLAS(cublasDestroy(cublas));
  if (timing.stream != nullptr) CHECK(cudaStreamDestroy(timing.stream));

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  std::printf("%d problems in %.0f s\n", passed + failed, seconds);
  std::printf("geometric mean of cuBLAS time / tuned time: all %s; %s %s; suite %s; named %s\n",
              geometric_mean(problems, outcomes, [](const Problem &) { return true; }).c_str(),
              problem_list.empty() ? "random" : "listed",
              geometric_mean(problems, outcomes, [](const Problem &p) { return !p.suite && !p.named; }).c_str(),
              geometric_mean(problems, outcomes, [](const Problem &p) { return p.suite; }).c_str(),
              geometric_mean(problems, outcomes, [](const Problem &p) { return p.named; }).c_str());
  // The selection's prediction against the measurement: their ratio's geometric mean and
  // spread over the problems it predicted (a ranking needs the spread small, not the mean 1).
  {
    double log_sum = 0, log_sq = 0;
    int n = 0, within_half = 0;
    for (size_t i = 0; i < problems.size(); ++i) {
      const Outcome &o = outcomes[i];
      if (!o.timed() || !(o.predicted_ms > 0)) continue;
      const double r = std::log(o.tuned_ms / o.predicted_ms);
      log_sum += r;
      log_sq += r * r;
      within_half += std::fabs(r) < std::log(1.5);
      ++n;
    }
    if (n > 0) {
      const double mean = log_sum / n, sd = std::sqrt(std::max(0.0, log_sq / n - mean * mean));
      std::printf("measured / predicted time over %d predicted problems: geometric mean %.2f, geometric sd %.2f, "
                  "%d within 1.5x\n",
                  n, std::exp(mean), std::exp(sd), within_half);
    }
  }
  size_t worst = problems.size();
  for (size_t i = 0; i < problems.size(); ++i)
    if (outcomes[i].timed() && (worst == problems.size() || outcomes[i].ratio() < outcomes[worst].ratio())) worst = i;
  if (worst < problems.size())
    std::printf("worst: #%zu %s lda=%d ldb=%d ldc=%d off=%d: %.1f%% (%s)\n", worst + 1, describe(problems[worst]).c_str(),
                problems[worst].call.lda, problems[worst].call.ldb, problems[worst].call.ldc, problems[worst].offset,
                100.0 * outcomes[worst].ratio(), outcomes[worst].path);
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
