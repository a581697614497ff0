// Host time of one selection (select_for_product, 12 entries, 132 SMs) on the CPU machine:
//   nvcc -O2 -std=c++17 -arch=sm_90 -I kernel_templates selection_cost.cu -o selection_cost && ./selection_cost
#include <chrono>
#include <cstdio>
#include "sgemm_tuned_runtime.cuh"
namespace k = sgemm_tune_kernels;
int main() {
  k::TunedShape s[12];
  const k::SgemmTile t1{64,128,32,32,128,4,8,4,2,0,1}, t0{64,64,16,32,32,1,4,4,2,1,1};
  for (int i = 0; i < 12; ++i) s[i] = k::TunedShape{256LL << (i % 5), 512, 1024, i % 2 ? t1 : t0, 100.0, 40.0, 4, 4096, 4096, 4096, 50.0};
  double sum = 0; int n = 0;
  auto a = std::chrono::steady_clock::now();
  for (int r = 0; r < 20000; ++r) {
    int M = 64 + (r * 37) % 3000, N = 64 + (r * 91) % 2000, K = 64 + (r * 13) % 5000;
    k::RowMajorGemm g{M, N, K, 1.f, (const float*)16, K, false, (const float*)32, N, false, 0.f, (float*)64, N};
    auto sel = sgemm_tune_runtime::select_for_product(s, 12, g, 132);
    sum += sel.predicted_ps; n++;
  }
  auto b = std::chrono::steady_clock::now();
  std::printf("%.2f us per selection (%g)\n", std::chrono::duration<double, std::micro>(b - a).count() / n, sum);
}
