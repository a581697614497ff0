// Which tuned configuration serves a problem shape. One definition, used by the tuner's
// `best` command and by the headers `sgemm-tune emit` generates, so that both always give
// the same answer. Plain C++17: no CUDA, no standard library.
//
// The rule, for the entries tuned on the GPU in hand:
//   1. exact:   an entry tuned at exactly this shape, whose tile divides it;
//   2. nearest: otherwise the entry whose tile divides the shape and whose tuned shape is
//               nearest in log space (|ln M/M'| + |ln N/N'| + |ln K/K'|); ties go to the
//               higher percent of cuBLAS, then to the earlier entry;
//   3. edges:   otherwise, for operands the fast kernel reads (16-byte aligned rows), the
//               edge variant of the fast kernel (any shape) with the tuned tile that
//               select_edges predicts fastest;
//   4. none:    otherwise (unaligned or transposed operands, or no tuned tile takes the
//               shape): the caller runs the bounds-checked kernel with kDefaultTile.
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
  double tflops;  // measured at M x N x K; 0: unknown (select_edges then skips the entry)
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

// The share of `slots` busy over the waves that `blocks` take: blocks / (waves * slots).
inline double wave_efficiency(long long blocks, long long slots) {
  if (slots < 1) slots = 1;
  const long long waves = (blocks + slots - 1) / slots;
  return waves < 1 ? 1.0 : static_cast<double>(blocks) / static_cast<double>(waves * slots);
}

inline long long tiles_over(long long M, long long N, const SgemmTile &t) {
  return ((M + t.BM - 1) / t.BM) * ((N + t.BN - 1) / t.BN);
}
}  // namespace detail

// The predicted time, in picoseconds (a ranking, not a forecast), of the edge kernel of
// entry `e` on M x N x K with `sms` SMs: the flops of the shape rounded up to whole tiles and
// K slices, at the entry's measured rate, stretched by the share of the last wave of tiles
// that sits idle, counting one block per SM. The measured rate is taken as it is: an entry
// tuned at a shape too small to fill the GPU ranks lower, where taking its idle SMs out of
// its rate would credit it with a throughput it never showed.
inline double predict_edges_time(const TunedShape &e, long long M, long long N, long long K, int sms) {
  const SgemmTile &t = e.tile;
  const double padded_flops = 2.0 * static_cast<double>(round_up_to(M, t.BM)) *
                              static_cast<double>(round_up_to(N, t.BN)) * static_cast<double>(round_up_to(K, t.BK));
  return padded_flops / (e.tflops * detail::wave_efficiency(detail::tiles_over(M, N, t), sms));
}

// Rule 3: the index of the entry whose edge kernel predict_edges_time ranks fastest (ties to
// the earlier entry), among those with a measured rate whose tile takes the shape
// (shape_fits_tile_edges); -1 when none does. `sms`: the GPU's SM count.
inline int select_edges(const TunedShape *entries, int count, long long M, long long N, long long K, int sms) {
  int best = -1;
  double best_time = 0;
  for (int i = 0; i < count; ++i) {
    const TunedShape &e = entries[i];
    if (!(e.tflops > 0) || !shape_fits_tile_edges(e.tile, M, N, K)) continue;
    const double time = predict_edges_time(e, M, N, K, sms);
    if (best < 0 || time < best_time) {
      best = i;
      best_time = time;
    }
  }
  return best;
}

// Index of the entry to use by rules 1 and 2, or -1. `aligned`: A, B and C are 16-byte aligned.
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
