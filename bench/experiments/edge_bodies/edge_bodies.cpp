// Why the edge kernel runs whole tiles slower than the fast kernel of the same tile.
//
// Compiles, with NVRTC and the tuner's options, for each tile on the command line:
//   fast      sgemm_double_buffered as tuned (stream-K where the tile says so)
//   fast_dp   sgemm_double_buffered with STREAMK = 0 (the edge kernel's data-parallel grid)
//   edge4     sgemm_double_buffered_edges: with templates before the edge kernel became a
//             kernel per body, four bodies, one chosen per block; since, the plain body's
//             kernel, which checks that it was launched for that body
//   edge1     only the plain aligned body (kPlainEdges), with no such check
// and times them in alternating rounds on each shape (the fast kernels only where the tile
// divides it), the edge kernels unsplit and with the tail split, with cuBLAS on the same
// operands, each result checked against cuBLAS.
// With EB_ANY=1 (at compile and at run) the edge4 form is sgemm_double_buffered_any instead,
// timed as `any` on B stored transposed (N x K, kOperandTransB), unsplit and split as fills
// the GPU (`any_fill`, kEdgeFillSplit: it has no tail split), cuBLAS on the same operands;
// edge1 is compiled but not timed. EB_FORM (at compile) names another kernel for the edge4
// form (sgemm_double_buffered_any_narrow, say) and EB_OPERANDS (at run) adds kOperand* bits
// to every edge launch (32, kOperandNarrowAB, for the narrow bodies). EB_SPLITS="2,4,8"
// (at run) times the edge kernel split each of those ways twice instead of its other forms:
// `p<s>`, after the scale pass, adding parts atomically into the C it prepared; `c<s>`, as
// clusters of the splits (kOperandClusterSplit), with no scale pass, however many blocks
// (splits past kMaxClusterSplit run after the scale pass under either label).
//
//   edge_bodies compile TEMPLATE_DIR CUBIN_DIR "BM,BN,BK,WM,WN,WNITER,TM,TN,STAGES,PREFETCH,STREAMK" ...
//   edge_bodies run CUBIN_DIR TILE ...
//
// `compile` needs no GPU: it writes each kernel's cubin and lowered name to CUBIN_DIR and
// prints ptxas's registers; `run` loads them (the same tiles, in the same order) and times.
//
// Build (CPU machine; runs on the GPU machine):
//   g++ -O2 -std=c++17 -o edge_bodies bench/experiments/edge_bodies/edge_bodies.cpp
//       -Ikernel_templates -I/usr/local/cuda/include -L/usr/local/cuda/lib64
//       -lnvrtc -lcublas -lcudart -Wl,-rpath,/usr/local/cuda/lib64
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <sstream>
#include <string>
#include <vector>

#include "sgemm_launch.h"

namespace sk = sgemm_tune_kernels;

#define CHECK_CUDA(x)                                                                              \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));     \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

// The kernel with only the plain aligned body: what the edge kernel would be if each body
// were a kernel of its own.
static const char *kSource = R"(#include "sgemm_double_buffered.cuh"
namespace sgemm_tune_kernels {
template <SGEMM_TUNE_TILE_PARAMS>
__global__ void __launch_bounds__(tile_threads(SgemmTile{SGEMM_TUNE_TILE_ARGS}))
edges_plain_only(int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
                 const float *__restrict__ B, int ldb, float beta, float *__restrict__ C, int ldc, int operands) {
  detail::sgemm_tiles<detail::kPlainEdges, SGEMM_TUNE_TILE_ARGS>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc,
                                                                 operands);
}
}
)";

struct Compiled {
  std::string name, cubin, log;
  int registers = -1;
};

static int registers_in(const std::string &log) {
  const auto at = log.rfind("Used ");
  return at == std::string::npos ? -1 : std::atoi(log.c_str() + at + 5);
}

static Compiled compile(const std::string &dir, const std::string &expr) {
  Compiled out;
  nvrtcProgram p;
  nvrtcCreateProgram(&p, kSource, "edge_bodies.cu", 0, nullptr, nullptr);
  nvrtcAddNameExpression(p, expr.c_str());
  const std::string inc = "-I" + dir;
  const char *opts[] = {"--gpu-architecture=sm_90", "--std=c++17", inc.c_str(), "--ptxas-options=--verbose",
                        "--ptxas-options=--register-usage-level=10"};
  const nvrtcResult r = nvrtcCompileProgram(p, 5, opts);
  size_t n = 0;
  nvrtcGetProgramLogSize(p, &n);
  out.log.resize(n);
  nvrtcGetProgramLog(p, out.log.data());
  if (r != NVRTC_SUCCESS) {
    std::fprintf(stderr, "%s: %s\n%s\n", expr.c_str(), nvrtcGetErrorString(r), out.log.c_str());
    std::exit(1);
  }
  const char *lowered = nullptr;
  nvrtcGetLoweredName(p, expr.c_str(), &lowered);
  out.name = lowered;
  nvrtcGetCUBINSize(p, &n);
  out.cubin.resize(n);
  nvrtcGetCUBIN(p, out.cubin.data());
  nvrtcDestroyProgram(&p);
  out.registers = registers_in(out.log);
  return out;
}

struct Kernel {
  std::string label;
  sk::SgemmTile tile{};
  const void *fn = nullptr;
  int registers = -1, slots = 0, persistent = 0;
};

static Kernel load(const std::string &label, const sk::SgemmTile &t, const Compiled &c, int device) {
  Kernel k;
  k.label = label;
  k.tile = t;
  k.registers = c.registers;
  cudaLibrary_t lib;
  CHECK_CUDA(cudaLibraryLoadData(&lib, c.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  cudaKernel_t kern;
  CHECK_CUDA(cudaLibraryGetKernel(&kern, lib, c.name.c_str()));
  CHECK_CUDA(sk::set_tile_smem_limit(kern, t, device));
  k.fn = reinterpret_cast<const void *>(kern);
  CHECK_CUDA(sk::tile_resident_blocks(k.fn, t, device, &k.slots));
  CHECK_CUDA(sk::tile_persistent_blocks(k.fn, t, device, &k.persistent));
  return k;
}

struct Shape {
  int M, N, K;
};

struct Entry {  // one timed launch form
  std::string label;
  const Kernel *kernel;
  int splits;  // 1, or sk::kEdgeTailSplit; -100: the fast kernel
  std::vector<double> ms;
  double error = 0;
  int operands = 0;  // kOperand* bits beside EB_OPERANDS
};

static std::string tile_text(const sk::SgemmTile &t) {
  std::ostringstream s;
  s << t.BM << "x" << t.BN << "x" << t.BK << " w" << t.WM << "x" << t.WN << " wn" << t.WNITER << " t" << t.TM << "x"
    << t.TN << " s" << t.STAGES << " p" << t.PREFETCH << " sk" << t.STREAMK;
  return s.str();
}

static std::string expression(const char *form, const sk::SgemmTile &t, int streamk) {
  std::ostringstream e;
  e << "sgemm_tune_kernels::" << form << "<" << t.BM << "," << t.BN << "," << t.BK << "," << t.WM << "," << t.WN
    << "," << t.WNITER << "," << t.TM << "," << t.TN << "," << t.STAGES << "," << t.PREFETCH << "," << streamk << ">";
  return e.str();
}

static std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(1);
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int main(int argc, char **argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const int first_tile = mode == "compile" ? 4 : 3;
  if ((mode != "compile" && mode != "run") || argc <= first_tile) {
    std::fprintf(stderr, "usage: %s compile TEMPLATE_DIR CUBIN_DIR TILE... | run CUBIN_DIR TILE...\n", argv[0]);
    return 2;
  }
  const std::string cubin_dir = argv[first_tile - 1];
  std::vector<sk::SgemmTile> tiles;
  for (int i = first_tile; i < argc; ++i) {
    int v[11];
    if (std::sscanf(argv[i], "%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
                    &v[7], &v[8], &v[9], &v[10]) != 11) {
      std::fprintf(stderr, "a tile is 11 comma-separated integers: %s\n", argv[i]);
      return 2;
    }
    tiles.push_back(sk::SgemmTile{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10]});
  }
  const bool any_mode = std::getenv("EB_ANY") != nullptr && std::string(std::getenv("EB_ANY")) == "1";
  const char *edge_form = std::getenv("EB_FORM") ? std::getenv("EB_FORM")
                          : any_mode              ? "sgemm_double_buffered_any"
                                                  : "sgemm_double_buffered_edges";
  const int extra_operands = std::getenv("EB_OPERANDS") ? std::atoi(std::getenv("EB_OPERANDS")) : 0;
  const char *kForms[] = {"sgemm_double_buffered", "sgemm_double_buffered", edge_form, "edges_plain_only"};
  const char *kLabels[] = {"fast", "fast_dp", "edge4", "edge1"};
  auto file = [&](size_t i, int f) { return cubin_dir + "/tile" + std::to_string(i) + "_" + kLabels[f]; };
  std::vector<Compiled> compiled;
  if (mode == "compile") {
    // A tile's four kernels at once: NVRTC takes about 1 GB a compilation of the edge kernel.
    for (size_t i = 0; i < tiles.size(); ++i) {
      std::vector<std::future<Compiled>> jobs;
      for (int f = 0; f < 4; ++f)
        jobs.push_back(std::async(std::launch::async, compile, std::string(argv[2]),
                                  expression(kForms[f], tiles[i], f == 1 ? 0 : tiles[i].STREAMK)));
      std::printf("tile %s:", tile_text(tiles[i]).c_str());
      for (int f = 0; f < 4; ++f) {
        const Compiled c = jobs[f].get();
        std::ofstream(file(i, f) + ".cubin", std::ios::binary) << c.cubin;
        std::ofstream(file(i, f) + ".name") << c.name;
        std::ofstream(file(i, f) + ".regs") << c.registers;
        std::printf(" %s %d regs;", kLabels[f], c.registers);
      }
      std::printf("\n");
    }
    return 0;
  }
  // EB_VARIANT_DIR: the cubins `compile` wrote from another template, whose edge kernels
  // are timed beside these (forms v_edge4, v_edge1) in the same rounds.
  const char *variant_dir = std::getenv("EB_VARIANT_DIR");
  const int forms = variant_dir ? 6 : 4;
  for (size_t i = 0; i < tiles.size(); ++i)
    for (int f = 0; f < forms; ++f) {
      const std::string base = f < 4 ? file(i, f)
                                     : std::string(variant_dir) + "/tile" + std::to_string(i) + "_" + kLabels[f - 2];
      Compiled c;
      c.cubin = slurp(base + ".cubin");
      c.name = slurp(base + ".name");
      c.registers = std::atoi(slurp(base + ".regs").c_str());
      compiled.push_back(c);
    }

  const int device = 0;
  CHECK_CUDA(cudaSetDevice(device));
  std::vector<std::vector<Kernel>> kernels(tiles.size());
  for (size_t i = 0; i < tiles.size(); ++i) {
    std::printf("tile %s:", tile_text(tiles[i]).c_str());
    for (int f = 0; f < forms; ++f) {
      sk::SgemmTile t = tiles[i];
      if (f == 1) t.STREAMK = 0;
      const Compiled &c = compiled[i * forms + f];
      const std::string label = f < 4 ? kLabels[f] : std::string("v_") + kLabels[f - 2];
      kernels[i].push_back(load(label, t, c, device));
      std::printf(" %s %d regs %d slots;", label.c_str(), c.registers, kernels[i].back().slots);
    }
    std::printf("\n");
  }

  // EB_SHAPES="MxNxK,..." replaces the shapes (at most 4096 x 4096 x 4100); EB_ROUNDS and
  // EB_LAUNCHES the rounds and launches a round (1 and 1, with no warm-up, for a profiler).
  std::vector<Shape> shapes = {{4096, 4096, 4096}, {2048, 2048, 2048}, {1024, 1024, 1024},
                               {1000, 1000, 1000}, {4096, 4096, 4100}, {3000, 3000, 3000},
                               {1164, 1104, 440},  {512, 512, 512}};
  if (const char *env = std::getenv("EB_SHAPES")) {
    shapes.clear();
    std::istringstream in(env);
    std::string item;
    while (std::getline(in, item, ',')) {
      Shape sh{};
      if (std::sscanf(item.c_str(), "%dx%dx%d", &sh.M, &sh.N, &sh.K) != 3 || sh.M < 1 || sh.N < 1 || sh.K < 1 ||
          sh.M > 4096 || sh.N > 4096 || sh.K > 4100) {
        std::fprintf(stderr, "EB_SHAPES: not a shape within 4096 x 4096 x 4100: %s\n", item.c_str());
        return 2;
      }
      shapes.push_back(sh);
    }
  }
  const int rounds = std::getenv("EB_ROUNDS") ? std::atoi(std::getenv("EB_ROUNDS")) : 7;
  const int fixed_launches = std::getenv("EB_LAUNCHES") ? std::atoi(std::getenv("EB_LAUNCHES")) : 0;
  const int warmups = fixed_launches > 0 ? 0 : 2;
  cublasHandle_t blas;
  if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) return 1;
  const size_t maxA = 4096ull * 4100, maxB = 4100ull * 4096, maxC = 4096ull * 4096;
  float *A, *B, *Bt, *C, *R;
  CHECK_CUDA(cudaMalloc(&A, maxA * 4));
  CHECK_CUDA(cudaMalloc(&B, maxB * 4));
  CHECK_CUDA(cudaMalloc(&Bt, maxB * 4));
  CHECK_CUDA(cudaMalloc(&C, maxC * 4));
  CHECK_CUDA(cudaMalloc(&R, maxC * 4));
  {
    std::vector<float> h(std::max(maxA, maxB));
    unsigned s = 12345;
    for (auto &x : h) x = ((s = s * 1664525u + 1013904223u) >> 8) * (2.0f / 16777216.0f) - 1.0f;
    CHECK_CUDA(cudaMemcpy(A, h.data(), maxA * 4, cudaMemcpyHostToDevice));
    for (auto &x : h) x = ((s = s * 1664525u + 1013904223u) >> 8) * (2.0f / 16777216.0f) - 1.0f;
    CHECK_CUDA(cudaMemcpy(B, h.data(), maxB * 4, cudaMemcpyHostToDevice));
  }
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  const float alpha = 1.0f, beta = 0.0f;
  std::vector<float> hc, hr;

  const char *ref = any_mode ? "any" : "edge4";
  std::printf("\n%-44s %-18s %-10s %9s %8s %8s %9s\n", "tile", "shape", "form", "ms", any_mode ? "/any" : "/edge4",
              "cuBLAS%", "err");
  for (const auto &sh : shapes) {
    const int M = sh.M, N = sh.N, K = sh.K;
    auto cublas = [&]() {
      // Row-major C = A B is column-major C^T = B^T A^T; with EB_ANY, B^T is Bt as it lies.
      const cublasStatus_t st =
          any_mode ? cublasSgemm(blas, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, Bt, K, A, K, &beta, R, N)
                   : cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K, &beta, R, N);
      return st == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
    };
    if (any_mode) {  // Bt (N x K, row-major) = B^T: column-major K x N from B's N x K
      const float one = 1.0f, zero = 0.0f;
      if (cublasSgeam(blas, CUBLAS_OP_T, CUBLAS_OP_N, K, N, &one, B, N, &zero, Bt, K, Bt, K) != CUBLAS_STATUS_SUCCESS)
        return 1;
    }
    CHECK_CUDA(cublas());
    CHECK_CUDA(cudaDeviceSynchronize());
    hr.resize(static_cast<size_t>(M) * N);
    CHECK_CUDA(cudaMemcpy(hr.data(), R, hr.size() * 4, cudaMemcpyDeviceToHost));
    double rnorm = 0;
    for (float v : hr) rnorm += double(v) * v;
    for (size_t i = 0; i < tiles.size(); ++i) {
      const auto &ks = kernels[i];
      std::vector<Entry> entries;
      if (sk::shape_fits_tile(tiles[i], M, N, K)) {
        entries.push_back({"fast", &ks[0], -100, {}, 0});
        entries.push_back({"fast_dp", &ks[1], -100, {}, 0});
      }
      if (!sk::shape_fits_tile_edges(tiles[i], M, N, K)) continue;
      if (any_mode) {
        entries.clear();  // the fast kernels read no transposed B
        entries.push_back({"any", &ks[2], 1, {}, 0});
        entries.push_back({"any_fill", &ks[2], sk::kEdgeFillSplit, {}, 0});
        if (forms == 6) {
          entries.push_back({"v_any", &ks[4], 1, {}, 0});
          entries.push_back({"v_any_fill", &ks[4], sk::kEdgeFillSplit, {}, 0});
        }
      } else if (const char *splits_env = std::getenv("EB_SPLITS")) {
        entries.clear();
        entries.push_back({"edge4", &ks[2], 1, {}, 0});
        std::istringstream in(splits_env);
        for (std::string item; std::getline(in, item, ',');) {
          const int s = std::atoi(item.c_str());
          if (!sk::k_split_fits(tiles[i], K, s)) continue;
          entries.push_back({"p" + item, &ks[2], s, {}, 0});
          entries.push_back({"c" + item, &ks[2], s, {}, 0, sk::kOperandClusterSplit});
        }
        entries.push_back({"edge4_tail", &ks[2], sk::kEdgeTailSplit, {}, 0});
      } else {
        entries.push_back({"edge4", &ks[2], 1, {}, 0});
        entries.push_back({"edge1", &ks[3], 1, {}, 0});
        entries.push_back({"edge4_tail", &ks[2], sk::kEdgeTailSplit, {}, 0});
        entries.push_back({"edge1_tail", &ks[3], sk::kEdgeTailSplit, {}, 0});
        if (forms == 6) {
          entries.push_back({"v_edge4", &ks[4], 1, {}, 0});
          entries.push_back({"v_edge1", &ks[5], 1, {}, 0});
          entries.push_back({"v_edge4_tail", &ks[4], sk::kEdgeTailSplit, {}, 0});
          entries.push_back({"v_edge1_tail", &ks[5], sk::kEdgeTailSplit, {}, 0});
        }
      }
      entries.push_back({"cublas", nullptr, 0, {}, 0});
      // Slots enough that every split the "c" entries ask for runs as clusters.
      const sk::ClusterSlots force_clusters = sk::uniform_cluster_slots(1 << 20);
      auto launch = [&](const Entry &en) -> cudaError_t {
        if (!en.kernel) return cublas();
        const Kernel &k = *en.kernel;
        if (en.splits == -100)
          return sk::launch_tile(k.fn, k.tile, k.persistent, M, N, K, alpha, A, K, B, N, beta, C, N, 0);
        if (any_mode)
          return sk::launch_tile_edges(k.fn, k.tile, en.splits, M, N, K, alpha, A, K, Bt, K, beta, C, N,
                                       sk::kOperandTransB | extra_operands, 0, k.slots);
        return sk::launch_tile_edges(k.fn, k.tile, en.splits, M, N, K, alpha, A, K, B, N, beta, C, N,
                                     extra_operands | en.operands, 0, k.slots, en.operands ? &force_clusters : nullptr);
      };
      // Each result checked against cuBLAS over a C of NaN (beta 0 must not read it).
      for (auto &en : entries) {
        if (!en.kernel) continue;
        CHECK_CUDA(cudaMemset(C, 0xff, static_cast<size_t>(M) * N * 4));
        CHECK_CUDA(launch(en));
        CHECK_CUDA(cudaDeviceSynchronize());
        hc.resize(hr.size());
        CHECK_CUDA(cudaMemcpy(hc.data(), C, hc.size() * 4, cudaMemcpyDeviceToHost));
        double d = 0;
        for (size_t j = 0; j < hc.size(); ++j) d += (double(hc[j]) - hr[j]) * (double(hc[j]) - hr[j]);
        en.error = std::sqrt(d / rnorm);
      }
      const double flop = 2.0 * M * N * K;
      const int launches =
          fixed_launches > 0 ? fixed_launches : std::max(3, std::min(50, static_cast<int>(2e10 / flop)));
      for (int round = 0; round < rounds; ++round)
        for (size_t j = 0; j < entries.size(); ++j) {
          Entry &en = entries[(j + round) % entries.size()];
          for (int w = 0; w < warmups; ++w) CHECK_CUDA(launch(en));
          cudaEventRecord(e0);
          for (int l = 0; l < launches; ++l) CHECK_CUDA(launch(en));
          cudaEventRecord(e1);
          CHECK_CUDA(cudaEventSynchronize(e1));
          float ms = 0;
          cudaEventElapsedTime(&ms, e0, e1);
          en.ms.push_back(ms / launches);
        }
      auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
      };
      double edge4 = 0, cub = 0;
      for (auto &en : entries) {
        if (en.label == ref) edge4 = median(en.ms);
        if (en.label == "cublas") cub = median(en.ms);
      }
      char shape[32];
      std::snprintf(shape, sizeof shape, "%dx%dx%d", M, N, K);
      for (auto &en : entries) {
        const double m = median(en.ms);
        std::printf("%-44s %-18s %-10s %9.4f %8.3f %7.1f%% %9.1e%s\n", tile_text(tiles[i]).c_str(), shape,
                    en.label.c_str(), m, edge4 / m, 100.0 * cub / m, en.error,
                    en.kernel && !(en.error < 1e-5) ? "  WRONG" : "");
      }
      std::fflush(stdout);
    }
  }
  return 0;
}
