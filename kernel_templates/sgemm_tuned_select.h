// Which tuned configuration serves a problem shape. One definition, used by the tuner's
// `best` command and by the headers `sgemm-tune emit` generates, so that both always give
// the same answer. Plain C++17: no CUDA, no standard library.
//
// The rule, for the entries tuned on the GPU in hand:
//   1. exact:   an entry tuned at exactly this shape, whose tile divides it;
//   2. nearest: otherwise the entry whose tile divides the shape and whose tuned shape is
//               nearest in log space (|ln M/M'| + |ln N/N'| + |ln K/K'|); ties go to the
//               higher percent of cuBLAS, then to the earlier entry;
//   3. none:    otherwise no tuned tile fits (or the operands are not 16-byte aligned):
//               the caller runs the bounds-checked kernel with kDefaultTile.
// A GPU with no entries gets the default tile too, on the fast kernel when it divides
// the shape and the operands are aligned, on the bounds-checked one otherwise.
#pragma once

#include "sgemm_tile_rules.h"

namespace sgemm_tune_kernels {

// The seed kernel's own configuration: valid everywhere, 24 KB of shared memory.
constexpr SgemmTile kDefaultTile{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};

enum class SelectKind { exact, nearest, none };

struct TunedShape {
  long long M, N, K;
  SgemmTile tile;
  double percent_of_cublas;
};

namespace detail {
// ln(x) for x > 0 without <cmath>, for comparing distances only: ln x = 2 atanh((x-1)/(x+1)).
inline double log_approx(double x) {
  int exponent = 0;
  while (x > 2.0) { x *= 0.5; ++exponent; }
  while (x < 1.0) { x *= 2.0; --exponent; }
  const double y = (x - 1.0) / (x + 1.0), y2 = y * y;
  double term = y, sum = 0.0;
  for (int i = 1; i < 40; i += 2) { sum += term / i; term *= y2; }
  return 2.0 * sum + exponent * 0.6931471805599453;
}
inline double abs_log_ratio(long long a, long long b) {
  const double d = log_approx(static_cast<double>(a)) - log_approx(static_cast<double>(b));
  return d < 0 ? -d : d;
}
}  // namespace detail

// Index of the entry to use, or -1 (rule 3). `aligned`: A, B and C are 16-byte aligned.
inline int select_tuned(const TunedShape *entries, int count, long long M, long long N, long long K, bool aligned,
                        SelectKind *kind) {
  *kind = SelectKind::none;
  if (!aligned || M <= 0 || N <= 0 || K <= 0) return -1;
  int best = -1;
  double best_distance = 0;
  for (int i = 0; i < count; ++i) {
    const TunedShape &e = entries[i];
    if (!shape_fits_tile(e.tile, M, N, K)) continue;
    if (e.M == M && e.N == N && e.K == K) {
      if (*kind != SelectKind::exact || e.percent_of_cublas > entries[best].percent_of_cublas) best = i;
      *kind = SelectKind::exact;
      continue;
    }
    if (*kind == SelectKind::exact) continue;
    const double d = detail::abs_log_ratio(M, e.M) + detail::abs_log_ratio(N, e.N) + detail::abs_log_ratio(K, e.K);
    if (best < 0 || d < best_distance ||
        (d == best_distance && e.percent_of_cublas > entries[best].percent_of_cublas)) {
      best = i;
      best_distance = d;
      *kind = SelectKind::nearest;
    }
  }
  return best;
}

}  // namespace sgemm_tune_kernels
