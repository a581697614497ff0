// The BLAS entry point of a header from `sgemm-tune emit`, exercised as a user's program
// calls it; built by nvcc against the header (SGEMM_TUNED_HEADER) by the tests.
//   sgemm_blas_check invalid   arguments BLAS refuses, and empty products, under each
//                              dispatch: needs no GPU, because sgemm_tuned answers them
//                              before touching it
//   sgemm_blas_check cases     every layout, op pair, leading-dimension padding, operand
//                              offset, edge shape and beta, against cublasSgemm
//   sgemm_blas_check exact     the sizes of the BLAS products the header was tuned at, in
//                              every layout, op pair, padding, offset and beta: which entry
//                              and split each call took, and its result against cuBLAS
//   sgemm_blas_check measured  the same over fewer shapes and paddings with
//                              sgemm_tune::Dispatch::measured: each new product's first
//                              call times the best-ranked kernels (on C itself at beta 0, on
//                              a copy otherwise) before it runs
//   sgemm_blas_check edges     the edge variant of every tuned entry of this GPU, launched
//                              directly (K whole, split 3 ways, and the tail split; split 4
//                              and 8 ways leaving some parts no slices), over odd
//                              shapes with 16-byte aligned rows and not, against
//                              cublasSgemm; then with the operands packed first, every
//                              one or (B transposed) the transposed one alone
//   sgemm_blas_check huge      leading dimensions past the fast kernel's int offsets (an
//                              operand of 9 to 18 GB at a time), through each entry's edge
//                              kernel and through sgemm_tuned, against cublasSgemm
// One line per check, "ok" or "WRONG" last but one; exit 0 when every check passed.
// Leading dimensions here come from CBLAS's table, written out again, not from the header.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include SGEMM_TUNED_HEADER

#include "../tools/example/cuda_check.h"

using sgemm_tune::Layout;
using sgemm_tune::Op;
using sgemm_tune_runtime::Packing;

namespace {

constexpr Layout kLayouts[] = {Layout::RowMajor, Layout::ColMajor};
constexpr Op kOps[] = {Op::NoTrans, Op::Trans};

const char *layout_name(Layout l) { return l == Layout::RowMajor ? "row" : "col"; }
char op_name(Op o) { return o == Op::Trans ? 'T' : 'N'; }

// The matrix a CBLAS operand is stored as: op(X) is rows x cols and X its transpose when op
// is Trans. Its lines (rows of a row-major matrix, columns of a column-major one) are ld
// apart; each holds `length` floats, the least ld CBLAS accepts (and at least 1).
struct Stored {
  int rows, cols;
  int lines(Layout l) const { return l == Layout::RowMajor ? rows : cols; }
  int length(Layout l) const { return l == Layout::RowMajor ? cols : rows; }
  int min_ld(Layout l) const { return length(l) > 1 ? length(l) : 1; }
  // Floats from the first element to one past the last, as CBLAS reads them.
  size_t extent(Layout l, int ld) const {
    return lines(l) == 0 || length(l) == 0 ? 0 : size_t(lines(l) - 1) * ld + length(l);
  }
};
Stored stored(Op op, int op_rows, int op_cols) {
  return op == Op::Trans ? Stored{op_cols, op_rows} : Stored{op_rows, op_cols};
}

int g_passed = 0, g_failed = 0;

void report(bool ok, const std::string &line) {
  std::printf("%s %s\n", line.c_str(), ok ? "ok" : "WRONG");
  (ok ? g_passed : g_failed) += 1;
}

std::string error_name(cudaError_t e) {
  if (e == cudaSuccess) return "cudaSuccess";
  if (e == cudaErrorInvalidValue) return "cudaErrorInvalidValue";
  return "cudaError#" + std::to_string(int(e));
}

// sgemm_tuned(...) == expected, the call described on the line.
void expect_status(const std::string &what, cudaError_t got, cudaError_t expected) {
  report(got == expected, "invalid-args " + what + " -> " + error_name(got) + " (expected " + error_name(expected) + ")");
}

// Calls that must be answered without the GPU: refused ones, and empty products.
void run_invalid_calls() {
  static float host[64];  // never read: every call here returns before any access
  const float *p = host;
  float *c = host;
  const int M = 3, N = 5, K = 7;
  for (Layout l : kLayouts)
    for (Op a : kOps)
      for (Op b : kOps) {
        const int lda = stored(a, M, K).min_ld(l), ldb = stored(b, K, N).min_ld(l), ldc = Stored{M, N}.min_ld(l);
        const std::string call = std::string(layout_name(l)) + " " + op_name(a) + op_name(b) + " 3x5x7";
        const auto blas = [&](int la, int lb, int lc, int m, int n, int k, const float *A, const float *B, float *C) {
          return sgemm_tuned(l, a, b, m, n, k, 1.0f, A, la, B, lb, 0.0f, C, lc);
        };
        expect_status(call + " lda=" + std::to_string(lda - 1), blas(lda - 1, ldb, ldc, M, N, K, p, p, c),
                      cudaErrorInvalidValue);
        expect_status(call + " ldb=" + std::to_string(ldb - 1), blas(lda, ldb - 1, ldc, M, N, K, p, p, c),
                      cudaErrorInvalidValue);
        expect_status(call + " ldc=" + std::to_string(ldc - 1), blas(lda, ldb, ldc - 1, M, N, K, p, p, c),
                      cudaErrorInvalidValue);
        // The least leading dimensions are accepted: with N = 0 the call then does nothing.
        const int ldb0 = stored(b, K, 0).min_ld(l), ldc0 = Stored{M, 0}.min_ld(l);
        expect_status(call + " N=0 least lds", blas(lda, ldb0, ldc0, M, 0, K, p, p, c), cudaSuccess);
        expect_status(call + " N=0 ldc=0", blas(lda, ldb0, 0, M, 0, K, p, p, c), cudaErrorInvalidValue);
        expect_status(call + " M=-1", blas(lda, ldb, ldc, -1, N, K, p, p, c), cudaErrorInvalidValue);
        expect_status(call + " N=-1", blas(lda, ldb, ldc, M, -1, K, p, p, c), cudaErrorInvalidValue);
        expect_status(call + " K=-1", blas(lda, ldb, ldc, M, N, -1, p, p, c), cudaErrorInvalidValue);
        expect_status(call + " A=null", blas(lda, ldb, ldc, M, N, K, nullptr, p, c), cudaErrorInvalidValue);
        expect_status(call + " B=null", blas(lda, ldb, ldc, M, N, K, p, nullptr, c), cudaErrorInvalidValue);
        expect_status(call + " C=null", blas(lda, ldb, ldc, M, N, K, p, p, nullptr), cudaErrorInvalidValue);
        expect_status(call + " K=0 C=null", blas(lda, ldb, ldc, M, N, 0, p, p, nullptr), cudaErrorInvalidValue);
      }
  // M or N = 0 with nothing to point at: success, nothing touched.
  expect_status("row NN 0x5x7 all null", sgemm_tuned(Layout::RowMajor, Op::NoTrans, Op::NoTrans, 0, 5, 7, 1.0f,
                                                     nullptr, 7, nullptr, 5, 0.0f, nullptr, 5),
                cudaSuccess);
  expect_status("col TT 3x0x7 all null", sgemm_tuned(Layout::ColMajor, Op::Trans, Op::Trans, 3, 0, 7, 1.0f, nullptr,
                                                     7, nullptr, 1, 0.0f, nullptr, 3),
                cudaSuccess);
  // The nine-argument row-major shorthand.
  expect_status("dense M=-1", sgemm_tuned(-1, N, K, 1.0f, p, p, 0.0f, c), cudaErrorInvalidValue);
  expect_status("dense K=-1", sgemm_tuned(M, N, -1, 1.0f, p, p, 0.0f, c), cudaErrorInvalidValue);
  expect_status("dense C=null", sgemm_tuned(M, N, K, 1.0f, p, p, 0.0f, nullptr), cudaErrorInvalidValue);
  expect_status("dense A=null", sgemm_tuned(M, N, K, 1.0f, nullptr, p, 0.0f, c), cudaErrorInvalidValue);
  expect_status("dense 0x0x0 all null", sgemm_tuned(0, 0, 0, 1.0f, nullptr, nullptr, 0.0f, nullptr), cudaSuccess);
}

const char *dispatch_name(sgemm_tune::Dispatch d) {
  return d == sgemm_tune::Dispatch::measured ? "measured" : "predicted";
}

// The calls above under each dispatch: the measured one too answers them before the GPU.
// First the dispatch the process starts with (SGEMM_TUNE_DISPATCH), then handing back the
// workspaces' memory, of which there is none: both without touching a GPU.
void run_invalid() {
  std::printf("initial dispatch: %s\n", dispatch_name(sgemm_tune::dispatch()));
  for (const sgemm_tune::Dispatch d : {sgemm_tune::Dispatch::predicted, sgemm_tune::Dispatch::measured}) {
    sgemm_tune::set_dispatch(d);
    std::printf("dispatch: %s\n", dispatch_name(sgemm_tune::dispatch()));
    run_invalid_calls();
  }
  const cudaError_t released = sgemm_tune::release_workspaces();
  std::printf("release_workspaces: %s\n", cudaGetErrorName(released));
  if (released != cudaSuccess) ++g_failed;
}

// Device memory of exactly offset + extent floats (at least one), so that a read or write
// past what CBLAS allows falls outside the allocation (compute-sanitizer reports it).
struct Buffer {
  float *base = nullptr;
  size_t size = 0;
  explicit Buffer(size_t n) : size(n > 0 ? n : 1) { CHECK(cudaMalloc(&base, size * sizeof(float))); }
  ~Buffer() { cudaFree(base); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  std::vector<float> read() const {
    std::vector<float> h(size);
    CHECK(cudaMemcpy(h.data(), base, size * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
  }
  void write(const std::vector<float> &h) const {
    CHECK(cudaMemcpy(base, h.data(), size * sizeof(float), cudaMemcpyHostToDevice));
  }
};

std::vector<float> random_floats(size_t n, std::mt19937 &rng) {
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v) x = uniform(rng);
  return v;
}

struct Case {
  Layout layout;
  Op op_a, op_b;
  int M, N, K;
  int pad;     // added to each least leading dimension
  int offset;  // floats between each allocation's start and its operand
  float beta;  // 0: C starts as NaN and must not be read
  int entry;   // -1: through sgemm_tuned; else launch this tuned entry's edge kernel
  int splits;  // with K split this many ways (kEdgeTailSplit, 0: the tail split)
  bool round;  // each least leading dimension rounded up to a multiple of 4 before `pad`
  // With `entry`: never, the operands as they lie; always, packed into a workspace first,
  // then the edge kernel; transposed, a transposed B alone packed.
  Packing pack;
};

int round_up4(int v) { return (v + 3) / 4 * 4; }

// The relative Frobenius error of results against cuBLAS's, element by element; infinite
// once any result is not finite.
struct RelativeError {
  double diff = 0, norm = 0;
  size_t nonfinite = 0;
  void add(float got, float want) {
    if (!std::isfinite(got)) ++nonfinite;
    const double d = double(got) - want;
    diff += d * d;
    norm += double(want) * want;
  }
  double value() const { return nonfinite ? INFINITY : norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff); }
};

// INT_MAX, the largest offset in floats the fast kernel's int arithmetic holds.
constexpr int kIntMaxFloats = 2147483647;

// The header's tunings for the current GPU (null: none).
const sgemm_tune_runtime::GpuTable *current_table() {
  int device = 0;
  CHECK(cudaGetDevice(&device));
  return sgemm_tune_runtime::table_for_device(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, device).table;
}

// The edge kernel of entry `i` of this GPU's table (or its kernel of any operands, or the
// operands packed first as `pack` says), K split `splits` ways, chosen with route_choice and
// launched as sgemm_tuned launches its routes.
cudaError_t launch_entry_edges(int i, const sgemm_tune_kernels::RowMajorGemm &g, int splits,
                               Packing pack, std::string *path, cudaStream_t stream = 0) {
  const sgemm_tune_runtime::GpuTable *table = current_table();
  if (table == nullptr || i >= table->count) return cudaErrorInvalidDevice;
  // A split into more parts than K has slices runs as one part a slice.
  const long long slices = sgemm_tune_kernels::detail::k_slices(g.K, table->kernels[i].shape.tile);
  if (splits > slices) splits = slices > 1 ? static_cast<int>(slices) : 1;
  sgemm_tune_runtime::Route r{};
  const cudaError_t e = sgemm_tune_runtime::route_choice(
      sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, g, i, true, splits, pack, &r);
  if (e != cudaSuccess) return e;
  const std::string name = sgemm_tune_runtime::path_name(r.path);  // tuned-edge-cubin, tuned-any-source, ...
  *path = "entry-" + std::to_string(i) + name.substr(name.find('-'));
  return sgemm_tune_runtime::launch_route(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, r, g, stream);
}

// A split of K that cluster_split_fits is one launch where the GPU launches clusters (no
// scale pass), two elsewhere: entry 0's edge kernel, 127 x 129 and 5 K slices split 4 ways,
// captured into a graph whose kernel nodes are counted: a line "cluster split: N launches"
// (report), wrong where N is not what the GPU calls for.
void check_cluster_launch() {
  const sgemm_tune_runtime::GpuTable *table = current_table();
  if (table == nullptr || table->count < 1) return;
  int device = 0;
  CHECK(cudaGetDevice(&device));
  const int M = 127, N = 129, K = 5 * table->kernels[0].shape.tile.BK - 3;
  float *A, *B, *C;
  CHECK(cudaMalloc(&A, sizeof(float) * M * K));
  CHECK(cudaMalloc(&B, sizeof(float) * K * N));
  CHECK(cudaMalloc(&C, sizeof(float) * M * N));
  const sgemm_tune_kernels::RowMajorGemm g = sgemm_tune_kernels::dense_row_major(M, N, K, 1.0f, A, B, 0.0f, C);
  std::string path;
  CHECK(launch_entry_edges(0, g, 4, Packing::never, &path));  // loads the kernel before the capture
  CHECK(cudaDeviceSynchronize());
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  const cudaError_t launched = launch_entry_edges(0, g, 4, Packing::never, &path, stream);
  CHECK(cudaStreamEndCapture(stream, &graph));
  CHECK(launched);
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  const size_t want = sgemm_tune_runtime::device_cluster_slots(device) != nullptr ? 1 : 2;
  report(nodes == want, "cluster split: " + std::to_string(nodes) + " launches, " + std::to_string(want) + " expected");
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  CHECK(cudaFree(C));
}

std::string describe(const Case &c) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "case %s %c%c %dx%dx%d pad=%d off=%d beta=%g splits=%d", layout_name(c.layout),
                op_name(c.op_a), op_name(c.op_b), c.M, c.N, c.K, c.pad, c.offset, c.beta, c.splits);
  return buf;
}

// The same product by cuBLAS (column-major): a column-major call as it stands; a row-major
// one as the column-major product of the transposes, C^T = op(B)^T op(A)^T.
void reference(cublasHandle_t h, const Case &c, float alpha, const float *A, int lda, const float *B, int ldb,
               float *C, int ldc) {
  const cublasOperation_t oa = c.op_a == Op::Trans ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t ob = c.op_b == Op::Trans ? CUBLAS_OP_T : CUBLAS_OP_N;
  if (c.layout == Layout::ColMajor)
    CHECK_CUBLAS(cublasSgemm(h, oa, ob, c.M, c.N, c.K, &alpha, A, lda, B, ldb, &c.beta, C, ldc));
  else
    CHECK_CUBLAS(cublasSgemm(h, ob, oa, c.N, c.M, c.K, &alpha, B, ldb, A, lda, &c.beta, C, ldc));
}

void run_case(cublasHandle_t h, const Case &c, std::mt19937 &rng) {
  const Layout l = c.layout;
  const Stored sa = stored(c.op_a, c.M, c.K), sb = stored(c.op_b, c.K, c.N), sc{c.M, c.N};
  const auto ld = [&](const Stored &x) { return (c.round ? round_up4(x.min_ld(l)) : x.min_ld(l)) + c.pad; };
  const int lda = ld(sa), ldb = ld(sb), ldc = ld(sc);
  const Buffer a(c.offset + sa.extent(l, lda)), b(c.offset + sb.extent(l, ldb));
  const Buffer out(c.offset + sc.extent(l, ldc)), ref(out.size);
  a.write(random_floats(a.size, rng));
  b.write(random_floats(b.size, rng));
  const std::vector<float> start = c.beta == 0.0f ? std::vector<float>(out.size, NAN) : random_floats(out.size, rng);
  out.write(start);
  ref.write(start);
  const float alpha = 0.75f;
  const float *A = a.base + c.offset, *B = b.base + c.offset;
  float *C = out.base + c.offset;

  std::string path;
  int timed = 0;  // Route::timed of the route the call took
  // The tuned entry the route took (its shape as tuned, "none" for the default tile) and its
  // split of K (kEdgeTailSplit 0, kEdgeFillSplit -1).
  std::string entry = "none";
  int route_splits = 1;
  cudaError_t status;
  if (c.entry < 0) {
    status = sgemm_tuned(l, c.op_a, c.op_b, c.M, c.N, c.K, alpha, A, lda, B, ldb, c.beta, C, ldc);
    sgemm_tune_runtime::Route route{};
    CHECK(sgemm_tune_runtime::route(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, l, c.op_a, c.op_b, c.M,
                                    c.N, c.K, A, lda, B, ldb, C, ldc, &route));
    path = sgemm_tune_runtime::path_name(route.path);
    timed = route.timed;
    route_splits = route.splits;
    if (route.kernel != nullptr)
      entry = std::to_string(route.kernel->shape.M) + "x" + std::to_string(route.kernel->shape.N) + "x" +
              std::to_string(route.kernel->shape.K);
  } else {
    const sgemm_tune_kernels::RowMajorGemm g =
        sgemm_tune_kernels::to_row_major(l, c.op_a, c.op_b, c.M, c.N, c.K, alpha, A, lda, B, ldb, c.beta, C, ldc);
    status = launch_entry_edges(c.entry, g, c.splits, c.pack, &path);
    // The kernel of any operands has no tail split: asked for one, the route is refused
    // before anything runs, and C keeps every bit it had.
    if (c.splits == sgemm_tune_kernels::kEdgeTailSplit && c.pack == Packing::never &&
        sgemm_tune_runtime::needs_any_kernel(g)) {
      CHECK(cudaDeviceSynchronize());
      const std::vector<float> got = out.read();
      const bool untouched = std::memcmp(got.data(), start.data(), got.size() * sizeof(float)) == 0;
      char buf[160];
      std::snprintf(buf, sizeof buf, " lds=%d,%d,%d %s outside=%s path=refused", lda, ldb, ldc,
                    error_name(status).c_str(), untouched ? "0" : "changed");
      report(status == cudaErrorInvalidValue && untouched, describe(c) + buf);
      return;
    }
  }
  CHECK(cudaDeviceSynchronize());
  if (c.K > 0) reference(h, c, alpha, A, lda, B, ldb, ref.base + c.offset, ldc);
  CHECK(cudaDeviceSynchronize());

  // The M x N elements against cuBLAS (for K = 0 against the definition, C = beta C, with
  // C = 0 for beta = 0 over NaN: how cuBLAS treats a NaN C then is not what is tested); every
  // other float of the allocation (offset, row padding) exactly as it started.
  const std::vector<float> got = out.read();
  std::vector<float> want = ref.read();
  std::vector<bool> inside(out.size, false);
  for (int line = 0; line < sc.lines(l); ++line)
    for (int i = 0; i < sc.length(l); ++i) {
      const size_t at = c.offset + size_t(line) * ldc + i;
      inside[at] = true;
      if (c.K == 0) want[at] = c.beta == 0.0f ? 0.0f : c.beta * start[at];
    }
  RelativeError error;
  size_t touched = 0;
  for (size_t i = 0; i < out.size; ++i) {
    if (!inside[i]) {
      touched += std::memcmp(&got[i], &start[i], sizeof(float)) != 0;
      continue;
    }
    error.add(got[i], want[i]);
  }
  const bool ok = status == cudaSuccess && error.value() < 1e-4 && touched == 0;
  char buf[260];
  std::snprintf(buf, sizeof buf, " lds=%d,%d,%d %s err=%.1e outside=%zu path=%s timed=%d entry=%s route_splits=%d",
                lda, ldb, ldc, error_name(status).c_str(), error.value(), touched, path.c_str(), timed, entry.c_str(),
                route_splits);
  report(ok, describe(c) + buf);
}

struct Sizes {
  int M, N, K;
};

// Every layout, op pair, padding (0, 4, 3), offset (0, 1, 3 floats) and beta (0, 0.5) of each
// of `sizes`, through sgemm_tuned.
void run_every_call(std::initializer_list<Sizes> sizes, unsigned seed) {
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  std::mt19937 rng(seed);
  for (const Sizes &s : sizes)
    for (Layout l : kLayouts)
      for (Op a : kOps)
        for (Op b : kOps)
          for (int pad : {0, 4, 3})
            for (int offset : {0, 1, 3})
              for (float beta : {0.0f, 0.5f})
                run_case(h, Case{l, a, b, s.M, s.N, s.K, pad, offset, beta, -1, 1, false, Packing::never}, rng);
  CHECK_CUBLAS(cublasDestroy(h));
}

// Edge remainders; shapes the test's tuned entries divide (tests/test_gpu_blas.cpp); K = 0;
// empty products; aligned rows of shapes no entry divides (the edge paths).
void run_cases() {
  run_every_call({{127, 129, 131}, {1, 1, 1}, {33, 4096, 17}, {17, 33, 1000}, {512, 512, 512}, {640, 640, 640},
                  {384, 192, 48}, {64, 48, 0}, {0, 64, 32}, {64, 0, 32}, {1000, 1000, 1000}, {100, 36, 20}},
                 11);
}

// The sizes tests/test_gpu_blas.cpp tunes as BLAS products (127x129x131:NT, 17x33x1000:NN:col):
// its own call (and those of the same product and rows' alignment) runs the entry as the
// tuner timed it, the others by prediction.
void run_exact() { run_every_call({{127, 129, 131}, {17, 33, 1000}}, 13); }

// The measured dispatch: shapes the tuned entries divide (an exact match, never timed), edge
// remainders and shapes split or not, every layout and op pair, rows aligned or not, beta
// 0.5 first (timed on a copy: C must come out as one call leaves it), then 0 over NaN, the
// same product (the same key), which reuses the route measured at 0.5.
void run_measured() {
  sgemm_tune::set_dispatch(sgemm_tune::Dispatch::measured);
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  std::mt19937 rng(12);
  struct Shape {
    int M, N, K;
  };
  const Shape shapes[] = {{127, 129, 131},  {1, 1, 1},    {17, 33, 1000},
                          {512, 512, 512}, {1000, 1000, 1000}, {100, 36, 20}};
  for (const Shape &s : shapes)
    for (Layout l : kLayouts)
      for (Op a : kOps)
        for (Op b : kOps)
          for (int pad : {0, 3})
            for (int offset : {0, 1})
              for (float beta : {0.5f, 0.0f})
                run_case(h, Case{l, a, b, s.M, s.N, s.K, pad, offset, beta, -1, 1, false, Packing::never}, rng);
  CHECK_CUBLAS(cublasDestroy(h));

  // An error the program has not read yet (a failed allocation's, which does not stick)
  // stays for it to read: a product first called with it pending takes the predicted route
  // and is measured at a later call, as a candidate's failed launch, cleared, would take the
  // program's error with it.
  const int M = 300, N = 200, K = 100;  // no product above: its route is chosen afresh
  float *A = nullptr, *B = nullptr, *C = nullptr;
  CHECK(cudaMalloc(&A, sizeof(float) * M * K));
  CHECK(cudaMalloc(&B, sizeof(float) * K * N));
  CHECK(cudaMalloc(&C, sizeof(float) * M * N));
  CHECK(cudaMemset(A, 0, sizeof(float) * M * K));
  CHECK(cudaMemset(B, 0, sizeof(float) * K * N));
  void *huge = nullptr;
  const cudaError_t planted = cudaMalloc(&huge, ~std::size_t{0} / 2);
  const cudaError_t first = sgemm_tuned(M, N, K, 1.0f, A, B, 0.0f, C);
  const cudaError_t pending = cudaGetLastError();
  sgemm_tune_runtime::Route route{};
  CHECK(sgemm_tune_runtime::route(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, M, N, K, A, B, C, &route));
  const int timed_first = route.timed;
  const cudaError_t second = sgemm_tuned(M, N, K, 1.0f, A, B, 0.0f, C);
  CHECK(cudaDeviceSynchronize());
  CHECK(sgemm_tune_runtime::route(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, M, N, K, A, B, C, &route));
  report(planted != cudaSuccess && first == cudaSuccess && pending == planted && timed_first == 0 &&
             second == cudaSuccess && route.timed >= 1,
         "measured: an error pending before the first call (" + error_name(planted) + ") still pending after it (" +
             error_name(pending) + "); timed " + std::to_string(timed_first) + " then " +
             std::to_string(route.timed));
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  CHECK(cudaFree(C));
}

// Every tuned entry's edge kernel on odd shapes: remainders of M, N and K against every
// tile (a 1 x 1 x 1 product, less than one tile; odd sizes near and past one tile; a
// K remainder alone), row-major and column-major (which swaps the operands), every op pair,
// rows 16-byte aligned (the least leading dimensions rounded up to multiples of 4) or not
// (padded by 3, operands one float in), K whole, split 3 ways or tail-split.
// The edge kernels' launches: whole K, K split 3 ways, and the tail split (kEdgeTailSplit).
constexpr int kEdgeSplits[] = {1, 3, sgemm_tune_kernels::kEdgeTailSplit};

void run_edges() {
  const sgemm_tune_runtime::GpuTable *table = current_table();
  if (table == nullptr) {
    report(false, "edges: the header has no table for this GPU");
    return;
  }
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  std::mt19937 rng(12);
  struct Shape {
    int M, N, K;
  };
  const Shape shapes[] = {{1, 1, 1}, {127, 129, 131}, {1001, 999, 1003}, {129, 65, 17}, {256, 256, 260}, {33, 300, 7}};
  for (int entry = 0; entry < table->count; ++entry)
    for (const Shape &s : shapes)
      for (Layout l : kLayouts)
        for (Op a : kOps)
          for (Op b : kOps)
            for (bool aligned : {true, false})
              for (int splits : kEdgeSplits)
                for (float beta : {0.0f, 0.5f})
                  run_case(h,
                           Case{l, a, b, s.M, s.N, s.K, aligned ? 0 : 3, aligned ? 0 : 1, beta, entry, splits, aligned,
                                Packing::never},
                           rng);
  // The same entries with the operands packed first (unaligned rows: every op pair packs).
  for (int entry = 0; entry < table->count; ++entry)
    for (const Shape &s : {Shape{1001, 999, 1003}, Shape{127, 129, 131}})
      for (Layout l : kLayouts)
        for (Op a : kOps)
          for (Op b : kOps)
            for (int splits : kEdgeSplits)
              for (float beta : {0.0f, 0.5f})
                run_case(h,
                         Case{l, a, b, s.M, s.N, s.K, 3, 1, beta, entry, splits, false,
                              Packing::always},
                         rng);
  // The transposed B alone packed, A's unaligned rows read by the narrow bodies: the products
  // whose B is transposed in row-major terms (row-major A B^T, column-major A^T B).
  for (int entry = 0; entry < table->count; ++entry)
    for (const Shape &s : {Shape{1001, 999, 1003}, Shape{127, 129, 131}})
      for (Layout l : kLayouts)
        for (int splits : kEdgeSplits)
          for (float beta : {0.0f, 0.5f})
            run_case(h,
                     Case{l, l == Layout::RowMajor ? Op::NoTrans : Op::Trans,
                          l == Layout::RowMajor ? Op::Trans : Op::NoTrans, s.M, s.N, s.K, 3, 1, beta, entry, splits,
                          false, Packing::transposed_only},
                     rng);
  // The tail split with whole waves and a split last wave together: on 132 SMs, one of these
  // two shapes leaves a last wave at most half full, after at least one whole wave, for the
  // test's tiles (128 x 256 at 1 or 2 blocks an SM, 128 x 64 at 1 to 6), so that the whole
  // tiles, the split ones and the scale pass's offset into them all run. Row-major, A plain
  // or transposed (the edge kernel's two orientations), rows aligned.
  for (int entry = 0; entry < table->count; ++entry)
    for (const Shape &s : {Shape{2518, 2520, 100}, Shape{2888, 2890, 100}})
      for (Op a : kOps)
        for (float beta : {0.0f, 0.5f})
          run_case(h,
                   Case{Layout::RowMajor, a, Op::NoTrans, s.M, s.N, s.K, 0, 0, beta, entry,
                        sgemm_tune_kernels::kEdgeTailSplit, true, Packing::never},
                   rng);
  // Splits of K as clusters on a GPU that launches them (kOperandClusterSplit), some with
  // parts that get no slices (split_k_range: 5 slices split 4 ways, 9 split 4 and 8 ways;
  // launch_entry_edges takes 5 slices split 8 ways as 5 ways): every block of a cluster, one
  // without slices too, must meet its barrier. Every op pair, rows aligned or not.
  for (int entry = 0; entry < table->count; ++entry) {
    const int bk = table->kernels[entry].shape.tile.BK;
    for (int slices : {5, 9})
      for (int splits : {4, 8})
        for (Layout l : kLayouts)
          for (Op a : kOps)
            for (Op b : kOps)
              for (bool aligned : {true, false})
                for (float beta : {0.0f, 0.5f})
                  run_case(h,
                           Case{l, a, b, 127, 129, slices * bk - 3, aligned ? 0 : 3, aligned ? 0 : 1, beta, entry,
                                splits, aligned, Packing::never},
                           rng);
  }
  // The workspaces' memory handed back (sgemm_tune::release_workspaces) between packed
  // products: the next ones take it again.
  const cudaError_t released = sgemm_tune::release_workspaces();
  std::printf("release_workspaces: %s\n", cudaGetErrorName(released));
  if (released != cudaSuccess) ++g_failed;
  // A thin product with aligned rows, packed where it packs at all (B transposed in
  // row-major terms): row-major A B^T with M < N turned round, so that the smaller A is the
  // operand transposed (pack_form), and column-major, which is not turned.
  for (int entry = 0; entry < table->count; ++entry)
    for (Layout l : kLayouts)
      for (Op a : kOps)
        for (Op b : kOps)
          for (int splits : kEdgeSplits)
            for (float beta : {0.0f, 0.5f})
              run_case(h, Case{l, a, b, 64, 2000, 300, 0, 0, beta, entry, splits, true, Packing::always}, rng);
  CHECK_CUBLAS(cublasDestroy(h));
}

// Leading dimensions past the fast kernel's int offsets (leading_dimensions_fit_tile): for
// each tuned entry and each of A, B and C, a row-major product whose operand has rows so far
// apart that rows of one tile lie more than INT_MAX floats from the tile's first (A: BM rows,
// B: BK rows, C: WM rows), which only the edge kernel's 64-bit guarded code addresses right;
// with rows 16-byte aligned (the wide bodies, which must not take their unguarded int
// offsets) and not (the narrow ones). Each operand so stored takes 9 to 18 GB; only its used
// floats are written and read, and the float after each of its rows must keep its NaN
// pattern. Through the entry's edge kernel, K whole or split 3 ways, and through
// sgemm_tuned; beta 0 over NaN and 0.5. Skipped, saying so, where the GPU has less than
// 24 GiB free.
void run_huge() {
  std::size_t free_bytes = 0, total_bytes = 0;
  CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < (std::size_t{24} << 30)) {
    std::printf("skip huge: %zu MiB free, 24 GiB needed\n", free_bytes >> 20);
    return;
  }
  const sgemm_tune_runtime::GpuTable *table = current_table();
  if (table == nullptr) {
    report(false, "huge: the header has no table for this GPU");
    return;
  }
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  std::mt19937 rng(13);
  // A row-major matrix of rows x cols, rows ld floats apart: the used floats random (or NaN),
  // every other float the NaN pattern 0xffffffff.
  struct Strided {
    int rows, cols, ld;
    float *base = nullptr;
    Strided(int r, int c, int l) : rows(r), cols(c), ld(l) {
      const std::size_t n = std::size_t(rows - 1) * ld + cols;
      CHECK(cudaMalloc(&base, n * sizeof(float)));
      CHECK(cudaMemset(base, 0xff, n * sizeof(float)));
    }
    ~Strided() { cudaFree(base); }
    Strided(const Strided &) = delete;
    Strided &operator=(const Strided &) = delete;
    // Row by row: a pitch this long may exceed what cudaMemcpy2D takes (memPitch).
    float *row(int r) const { return base + std::size_t(r) * ld; }
    void write(const std::vector<float> &v) const {  // rows x cols, dense
      for (int r = 0; r < rows; ++r)
        CHECK(cudaMemcpy(row(r), v.data() + std::size_t(r) * cols, cols * sizeof(float), cudaMemcpyHostToDevice));
    }
    std::vector<float> read() const {
      std::vector<float> v(std::size_t(rows) * cols);
      for (int r = 0; r < rows; ++r)
        CHECK(cudaMemcpy(v.data() + std::size_t(r) * cols, row(r), cols * sizeof(float), cudaMemcpyDeviceToHost));
      return v;
    }
    // Floats after each row's last used one that lost the NaN pattern (rows but the last).
    std::size_t touched_after_rows() const {
      std::size_t n = 0;
      for (int r = 0; ld > cols && r + 1 < rows; ++r) {
        std::uint32_t bits = 0;
        CHECK(cudaMemcpy(&bits, row(r) + cols, sizeof bits, cudaMemcpyDeviceToHost));
        n += bits != 0xffffffffu;
      }
      return n;
    }
  };
  const float alpha = 0.75f;
  // Through sgemm_tuned (entry -1), the tile's rows are the fewest of any entry's, so that
  // whichever entry the selection picks, the leading dimension is past its bound.
  sgemm_tune_kernels::SgemmTile least = table->kernels[0].shape.tile;
  for (int i = 1; i < table->count; ++i) {
    const sgemm_tune_kernels::SgemmTile &t = table->kernels[i].shape.tile;
    least.BM = std::min(least.BM, t.BM);
    least.BK = std::min(least.BK, t.BK);
    least.WM = std::min(least.WM, t.WM);
    least.BN = std::min(least.BN, t.BN);
  }
  for (int entry = -1; entry < table->count; ++entry) {
    const sgemm_tune_kernels::SgemmTile t = entry < 0 ? least : table->kernels[entry].shape.tile;
    for (const char operand : {'A', 'B', 'C'})
      for (const bool aligned : {true, false}) {
        // Rows of the operand inside one tile: BM of A, BK of B, WM of C (a warp's rows, whose
        // offsets the epilogue keeps from the warp's corner). With every other size a multiple
        // of 4 the rows are 16-byte aligned and the edge kernel's wide bodies run, whose
        // interior stages and tiles would take the fast kernel's int offsets were the leading
        // dimension not past their bound: the first tile lies inside M, N and K (for C a whole
        // BM rows, so that its stores are not guarded anyway; for B two K slices, so that K
        // splits). Odd sizes take the narrow bodies, guarded throughout.
        const int tile_rows = operand == 'A' ? t.BM : operand == 'B' ? t.BK : t.WM;
        const int huge_ld = round_up4(kIntMaxFloats / (tile_rows - 1) + 1);
        const int odd = aligned ? 0 : 1;
        const int M = operand == 'B' ? t.BM + 4 - odd : t.BM, N = t.BN + 4 + odd,
                  K = operand == 'B' ? t.BK + 4 - odd : 2 * t.BK + 4 - odd;
        const int lda = operand == 'A' ? huge_ld : K, ldb = operand == 'B' ? huge_ld : N,
                  ldc = operand == 'C' ? huge_ld : N;
        for (const int splits : {1, 3})
          for (const float beta : {0.0f, 0.5f}) {
            if (entry < 0 && splits > 1) continue;  // the selection decides the split
            const Strided a(M, K, lda), b(K, N, ldb), c(M, N, ldc);
            const std::vector<float> ha = random_floats(std::size_t(M) * K, rng),
                                     hb = random_floats(std::size_t(K) * N, rng);
            const std::vector<float> start =
                beta == 0.0f ? std::vector<float>(std::size_t(M) * N, NAN) : random_floats(std::size_t(M) * N, rng);
            a.write(ha);
            b.write(hb);
            c.write(start);
            // cuBLAS on dense copies: C^T = B^T A^T in column-major terms.
            const Buffer da(ha.size()), db(hb.size()), dc(start.size());
            da.write(ha);
            db.write(hb);
            dc.write(start);
            CHECK_CUBLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, db.base, N, da.base, K, &beta,
                                     dc.base, N));
            std::string path;
            cudaError_t status;
            if (entry < 0) {
              status = sgemm_tuned(Layout::RowMajor, Op::NoTrans, Op::NoTrans, M, N, K, alpha, a.base, lda, b.base, ldb,
                                   beta, c.base, ldc);
              sgemm_tune_runtime::Route route{};
              CHECK(sgemm_tune_runtime::route(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount, Layout::RowMajor,
                                              Op::NoTrans, Op::NoTrans, M, N, K, a.base, lda, b.base, ldb, c.base, ldc,
                                              &route));
              path = sgemm_tune_runtime::path_name(route.path);
            } else {
              const sgemm_tune_kernels::RowMajorGemm g = sgemm_tune_kernels::to_row_major(
                  Layout::RowMajor, Op::NoTrans, Op::NoTrans, M, N, K, alpha, a.base, lda, b.base, ldb, beta, c.base,
                  ldc);
              status = launch_entry_edges(entry, g, splits, Packing::never, &path);
            }
            CHECK(cudaDeviceSynchronize());
            const std::vector<float> got = c.read(), want = dc.read();
            RelativeError error;
            for (std::size_t i = 0; i < got.size(); ++i) error.add(got[i], want[i]);
            const std::size_t touched = a.touched_after_rows() + b.touched_after_rows() + c.touched_after_rows();
            const bool ok = status == cudaSuccess && error.value() < 1e-4 && touched == 0;
            char buf[240];
            std::snprintf(buf, sizeof buf,
                          "case row NN %dx%dx%d huge=%c lds=%d,%d,%d beta=%g splits=%d %s err=%.1e outside=%zu path=%s",
                          M, N, K, operand, lda, ldb, ldc, beta, splits, error_name(status).c_str(), error.value(),
                          touched, path.c_str());
            report(ok, buf);
          }
    }
  }
  CHECK_CUBLAS(cublasDestroy(h));
}

}  // namespace

int main(int argc, char **argv) {
  const std::string mode = argc == 2 ? argv[1] : "";
  if (mode == "invalid") {
    run_invalid();
  } else if (mode == "cases") {
    run_cases();
  } else if (mode == "exact") {
    run_exact();
  } else if (mode == "measured") {
    run_measured();
  } else if (mode == "edges") {
    run_edges();
    check_cluster_launch();
  } else if (mode == "huge") {
    run_huge();
  } else {
    std::fprintf(stderr, "usage: %s invalid|cases|exact|measured|edges|huge\n", argv[0]);
    return 2;
  }
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}
