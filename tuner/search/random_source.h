// The random numbers of the searches that draw: splitmix64, written out so that a seed
// gives the same proposals with every compiler and standard library (the standard's
// distributions are not specified bit for bit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace sgemm_tune {

class RandomSource {
 public:
  explicit RandomSource(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n), n > 0, without modulo bias.
  std::size_t below(std::size_t n) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    std::uint64_t v;
    do v = next();
    while (v >= limit);
    return static_cast<std::size_t>(v % n);
  }

  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  template <typename T>
  void shuffle(std::vector<T> &v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
  }

 private:
  std::uint64_t state_;
};

}  // namespace sgemm_tune
