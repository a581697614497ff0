// Whether cuBLAS's SGEMM captured into a CUDA graph carries nodes besides its kernels
// (a workspace allocated and freed inside the graph, CUDA 12.2 and later, when the handle
// has no workspace of its own), and what that costs per call in GPU time: each product
// captured as a round of 20 calls, once with the handle's default workspace (as
// tools/bench_shapes --graphs captures it) and once with cublasSetWorkspace (as the tuner's
// timing.method "graphs" does), node kinds counted, replays timed.
//   nvcc -O2 -arch=sm_90 cublas_graph_workspace.cu -lcublas -o cublas_graph_workspace
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)
#define CHECK_CUBLAS(x) do { cublasStatus_t s_ = (x); if (s_ != CUBLAS_STATUS_SUCCESS) { std::printf("%s: %d\n", #x, int(s_)); std::exit(1); } } while (0)

struct Problem { int m, n, k; bool ta, tb; };

int main() {
  const std::vector<Problem> problems = {{256, 256, 256, false, false}, {512, 512, 512, false, false},
                                         {95, 709, 116, false, true},  {147, 478, 125, true, false},
                                         {80, 1588, 76, false, true},  {1000, 1000, 1000, false, false},
                                         {2463, 854, 2109, false, true}, {4096, 4096, 4096, false, false}};
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const size_t max_floats = size_t(4096) * 4096;
  float *a, *b, *c, *ws;
  CHECK(cudaMalloc(&a, max_floats * 4));
  CHECK(cudaMalloc(&b, max_floats * 4));
  CHECK(cudaMalloc(&c, max_floats * 4));
  CHECK(cudaMemset(a, 0, max_floats * 4));
  CHECK(cudaMemset(b, 0, max_floats * 4));
  const size_t ws_bytes = size_t(32) << 20;
  CHECK(cudaMalloc(&ws, ws_bytes));
  std::printf("%-22s %-9s %6s %6s %6s %9s\n", "product", "workspace", "nodes", "kernel", "other", "us/call");
  for (const Problem &p : problems) {
    for (int own = 0; own < 2; ++own) {
      cublasHandle_t h;
      CHECK_CUBLAS(cublasCreate(&h));
      CHECK_CUBLAS(cublasSetStream(h, stream));
      if (own) CHECK_CUBLAS(cublasSetWorkspace(h, ws, ws_bytes));
      const float alpha = 1, beta = 0;
      const int lda = p.ta ? p.m : p.k, ldb = p.tb ? p.k : p.n;  // row-major operands as column-major transposes
      auto call = [&] {
        CHECK_CUBLAS(cublasSgemm(h, p.tb ? CUBLAS_OP_T : CUBLAS_OP_N, p.ta ? CUBLAS_OP_T : CUBLAS_OP_N, p.n, p.m, p.k,
                                 &alpha, b, ldb, a, lda, &beta, c, p.n));
      };
      for (int i = 0; i < 3; ++i) call();
      CHECK(cudaStreamSynchronize(stream));
      const int calls = 20;
      cudaGraph_t graph;
      CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
      for (int i = 0; i < calls; ++i) call();
      CHECK(cudaStreamEndCapture(stream, &graph));
      size_t count = 0;
      CHECK(cudaGraphGetNodes(graph, nullptr, &count));
      std::vector<cudaGraphNode_t> nodes(count);
      CHECK(cudaGraphGetNodes(graph, nodes.data(), &count));
      int kernels = 0, other = 0;
      std::map<int, int> kinds;
      for (cudaGraphNode_t n : nodes) {
        cudaGraphNodeType t;
        CHECK(cudaGraphNodeGetType(n, &t));
        (t == cudaGraphNodeTypeKernel ? kernels : other) += 1;
        ++kinds[int(t)];
      }
      cudaGraphExec_t exec;
      CHECK(cudaGraphInstantiate(&exec, graph, 0));
      cudaEvent_t e0, e1;
      CHECK(cudaEventCreate(&e0));
      CHECK(cudaEventCreate(&e1));
      std::vector<float> ms;
      CHECK(cudaGraphLaunch(exec, stream));
      for (int r = 0; r < 9; ++r) {
        CHECK(cudaGraphLaunch(exec, stream));  // untimed lead: the GPU is busy when e0 is enqueued
        CHECK(cudaEventRecord(e0, stream));
        CHECK(cudaGraphLaunch(exec, stream));
        CHECK(cudaEventRecord(e1, stream));
        CHECK(cudaEventSynchronize(e1));
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, e0, e1));
        ms.push_back(t);
      }
      std::sort(ms.begin(), ms.end());
      char name[64];
      std::snprintf(name, sizeof name, "%dx%dx%d %c%c", p.m, p.n, p.k, p.ta ? 'T' : 'N', p.tb ? 'T' : 'N');
      std::printf("%-22s %-9s %6zu %6d %6d %9.2f  node kinds:", name, own ? "own" : "default", count, kernels, other,
                  ms[ms.size() / 2] * 1000 / calls);
      for (auto [k, n] : kinds) std::printf(" %d:%d", k, n);
      std::printf("\n");
      CHECK(cudaGraphExecDestroy(exec));
      CHECK(cudaGraphDestroy(graph));
      CHECK(cudaEventDestroy(e0));
      CHECK(cudaEventDestroy(e1));
      CHECK_CUBLAS(cublasDestroy(h));
    }
  }
  return 0;
}
