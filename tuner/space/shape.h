// A problem shape M x N x K: C (M x N) = A (M x K) * B (K x N).
#pragma once

#include <string>
#include <string_view>

namespace sgemm_tune {

struct Shape {
  long long M = 0, N = 0, K = 0;
  double flops() const { return 2.0 * static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(K); }
  std::string to_string() const;  // "4096x4096x4096"
  friend bool operator==(const Shape &a, const Shape &b) { return a.M == b.M && a.N == b.N && a.K == b.K; }
  friend bool operator<(const Shape &a, const Shape &b) {
    if (a.M != b.M) return a.M < b.M;
    if (a.N != b.N) return a.N < b.N;
    return a.K < b.K;
  }
};

// Largest dimension accepted: the kernels take int sizes.
inline constexpr long long kMaxDimension = 2147483647LL;

// Parses "MxNxK" (also "MXNXK"); throws UserError naming the text and what is wrong.
Shape parse_shape(std::string_view text);

}  // namespace sgemm_tune
