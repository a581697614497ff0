// The problems of the benchmark: a seeded random set of shapes nobody tuned, in every layout
// and op pair, some with padded leading dimensions or operands off alignment, and the eight
// dense row-major shapes of search_spaces/suite.json. The same seed gives the same problems
// everywhere: the generator is splitmix64 and the arithmetic is integer or exactly rounded,
// not a standard library distribution whose output may change between library versions.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "blas_mapping.h"

namespace bench_shapes {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1), 53 bits.
  double unit() { return double(next() >> 11) * 0x1.0p-53; }
  // Uniform in [lo, hi].
  int between(int lo, int hi) { return lo + int(next() % uint64_t(hi - lo + 1)); }

 private:
  uint64_t state_;
};

struct Problem {
  BlasCall call;
  int offset;  // floats between each operand and the aligned start of its allocation
  bool suite;  // one of the tuned suite's shapes, not the random set
  bool named;  // one of the named shapes off every tuned tile (1000^3, 3000^3, 4096x4096x4100)
};

constexpr int kMinDim = 64, kMaxDim = 8192;

// Log-uniform in [kMinDim, kMaxDim]. exp2 of a double is exact to the last bit or nearly,
// which the rounding down to an integer absorbs.
inline int log_uniform_dim(SplitMix64 &rng) {
  const double octaves = std::log2(double(kMaxDim) / kMinDim);
  const int d = int(kMinDim * std::exp2(octaves * rng.unit()));
  return d < kMinDim ? kMinDim : d > kMaxDim ? kMaxDim : d;
}

// `count` random problems for `seed`, then the suite, then the named shapes. Layouts alternate and op pairs cycle
// with period 8, so every layout and op pair comes up once in any 8 consecutive problems.
// Within each 8 consecutive problems, one at random has its shape rounded to multiples of
// 256 (a shape some tuned tile may divide); within each 4, one at random has leading
// dimensions 1 to 64 floats beyond the least, and one at random (maybe the same) operands 1
// or 3 floats off an aligned allocation: a quarter each, in no fixed layout or op pair.
inline std::vector<Problem> make_problems(uint64_t seed, int count) {
  SplitMix64 rng(seed);
  std::vector<Problem> out;
  constexpr Op kOps[] = {Op::NoTrans, Op::Trans};
  int rounded_slot = 0, padded_slot = 0, offset_slot = 0;
  for (int i = 0; i < count; ++i) {
    if (i % 8 == 0) rounded_slot = rng.between(0, 7);
    if (i % 4 == 0) {
      padded_slot = rng.between(0, 3);
      offset_slot = rng.between(0, 3);
    }
    BlasCall c{};
    c.layout = i % 2 == 0 ? Layout::RowMajor : Layout::ColMajor;
    c.op_a = kOps[(i / 2) % 2];
    c.op_b = kOps[(i / 4) % 2];
    c.M = log_uniform_dim(rng);
    c.N = log_uniform_dim(rng);
    c.K = log_uniform_dim(rng);
    if (i % 8 == rounded_slot)
      for (int *d : {&c.M, &c.N, &c.K}) *d = *d < 256 ? 256 : *d / 256 * 256;
    c.lda = c.a().min_ld(c.layout);
    c.ldb = c.b().min_ld(c.layout);
    c.ldc = c.c().min_ld(c.layout);
    if (i % 4 == padded_slot)
      for (int *ld : {&c.lda, &c.ldb, &c.ldc}) *ld += rng.between(1, 64);
    const int offset = i % 4 == offset_slot ? (rng.next() % 2 == 0 ? 1 : 3) : 0;
    out.push_back(Problem{c, offset, false, false});
  }
  const int suite[][3] = {{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192},
                          {4096, 4096, 1024}, {8192, 1024, 4096}, {1024, 8192, 8192}, {2048, 2048, 8192}};
  for (const auto &s : suite) {
    const int M = s[0], N = s[1], K = s[2];
    out.push_back(Problem{BlasCall{Layout::RowMajor, Op::NoTrans, Op::NoTrans, M, N, K, K, N, N}, 0, true, false});
  }
  // Dense row-major shapes just off the tuned tiles, which users meet: an odd size, a
  // multiple of 8 but not of 128, a K four past a tile.
  const int named[][3] = {{1000, 1000, 1000}, {3000, 3000, 3000}, {4096, 4096, 4100}};
  for (const auto &s : named) {
    const int M = s[0], N = s[1], K = s[2];
    out.push_back(Problem{BlasCall{Layout::RowMajor, Op::NoTrans, Op::NoTrans, M, N, K, K, N, N}, 0, false, true});
  }
  return out;
}

}  // namespace bench_shapes
