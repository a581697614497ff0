// Device memory filled for a check: uniform in [-1, 1] from a seed (splitmix64 of the
// index), or one value everywhere (NaN, to catch a C that is read when it must not be).
// Shared by the programs under tools/.
#pragma once

#include <cstddef>

__global__ void fill(float *p, size_t n, unsigned long long seed, float value, bool random) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    unsigned long long x = (i + 1) * 0x9e3779b97f4a7c15ULL ^ seed;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    x ^= x >> 31;
    p[i] = random ? float(x >> 40) * (2.0f / 16777216.0f) - 1.0f : value;
  }
}
