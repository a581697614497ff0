// Which tuned configuration serves a product, and how. One definition, used by the tuner's
// `best` command and by the headers `sgemm-tune emit` generates, so that both always give
// the same answer. Plain C++17: no CUDA, no standard library.
//
// The rule, for the entries tuned on the GPU in hand, for a product in row-major terms
// (sgemm_blas_call.h):
//   1. exact:     an entry tuned at exactly this shape whose tile divides it, when the fast
//                 kernel can read the operands (untransposed, 16-byte aligned rows): the
//                 timed kernel, launched as it was timed;
//   2. predicted: otherwise the kernel predict_time ranks fastest among every entry's edge
//                 kernel (any shape, any operands) with K split 1 .. kMaxSplitK ways, and,
//                 for operands the fast kernel reads, the fast kernel of every entry whose
//                 tile divides the shape;
//   3. none:      no entry with a measured rate takes the shape.
// The prediction is a ranking, not a forecast: it counts the tiles per wave on this GPU's
// SMs, the work wasted on edge tiles, each block's fixed cost against its K depth, and a
// split's extra pass and atomic traffic, at the rate the entry was measured at.
#pragma once

#include "sgemm_tile_rules.h"

namespace sgemm_tune_kernels {

// The seed kernel's own configuration: valid everywhere, 24 KB of shared memory. What a GPU
// that was never tuned runs.
constexpr SgemmTile kDefaultTile{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};

enum class SelectKind { exact, predicted, none };

struct TunedShape {
  long long M, N, K;
  SgemmTile tile;
  double percent_of_cublas;
  double tflops;  // measured at M x N x K; 0: unknown (the prediction then skips the entry)
};

// What serves a product: entry `entry` (-1 for none), on its fast kernel or its edge
// kernel with K split `splits` ways, predicted to take `predicted_ps`.
struct Selection {
  SelectKind kind;
  int entry;
  bool edges;
  int splits;
  double predicted_ps;
};

namespace detail {

// The model's constants, from the H200 (bench/NOTES.md): a launch with its ramp up and
// down; a block's prologue and epilogue, in K slices; the rate at which C is scaled and
// split parts are added atomically, in bytes per picosecond (TB/s).
constexpr double kLaunchPs = 4.0e6;
constexpr double kBlockOverheadSlices = 1.0;
constexpr double kSplitBytesPerPs = 2.0;
// The fast kernel has no guards: at the same predicted time it wins.
constexpr double kFastKernelAdvantage = 0.97;
// A configuration measured with most SMs idle (few tiles at a small shape) is credited at
// most this factor for its idle SMs: its blocks ran alone on their SMs, and a full wave
// holds several per SM, which share the SM's issue slots. Without the cap, a small tile
// tuned at 256^3 was predicted to run 1000^3 at 0.047 ms and took 0.112 ms
// (bench/results/2026-12-01-h200-shapes-workload, run4).
constexpr double kMaxIdleCredit = 2.0;
// The kernel of any operands against the edge kernel at the same tile: measured / predicted
// time 1.90 against 1.25 in geometric mean over the shapes benchmark
// (bench/results/2026-12-01-h200-shapes-workload, run3).
constexpr double kAnyKernelSlowdown = 1.5;
// Packing operands: a copy kernel per operand, at this many bytes per picosecond (read and
// written), and the workspace's allocation from the stream-ordered pool.
constexpr double kPackBytesPerPs = 2.0;
constexpr double kWorkspacePs = 2.0e6;
// The splits tried: few enough that a call's selection stays cheap.
constexpr int kSplitChoices[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64};

// The share of `slots` busy over the waves that `blocks` take: blocks / (waves * slots).
inline double wave_efficiency(long long blocks, long long slots) {
  if (slots < 1) slots = 1;
  const long long waves = (blocks + slots - 1) / slots;
  return waves < 1 ? 1.0 : static_cast<double>(blocks) / static_cast<double>(waves * slots);
}

inline long long tiles_over(long long M, long long N, const SgemmTile &t) {
  return ((M + t.BM - 1) / t.BM) * ((N + t.BN - 1) / t.BN);
}

// The rate, in flop per picosecond (TFLOP/s), at which entry e's tile computes on a full
// wave: its measured rate with the launch taken out (at most half the time: a measurement
// is never all overhead) and, for a data-parallel tile, its own tail wave given back (a
// shape of fewer tiles than SMs: its idle SMs, at most kMaxIdleCredit times).
inline double full_wave_rate(const TunedShape &e, int sms) {
  const double flops = 2.0 * static_cast<double>(e.M) * static_cast<double>(e.N) * static_cast<double>(e.K);
  const double measured = flops / e.tflops;
  const double compute = measured - kLaunchPs > 0.5 * measured ? measured - kLaunchPs : 0.5 * measured;
  if (e.tile.STREAMK) return flops / compute;  // stream-K spread its K over every SM already
  const long long tiles = tiles_over(e.M, e.N, e.tile);
  const double busy = static_cast<double>(tiles) / (sms < 1 ? 1 : sms);
  const double credit = busy >= 1.0                   ? 1.0 / wave_efficiency(tiles, sms)
                        : busy > 1.0 / kMaxIdleCredit ? 1.0 / busy
                                                      : kMaxIdleCredit;
  return flops / compute * credit;
}

}  // namespace detail

// The predicted time, in picoseconds, of entry e's kernel on M x N x K with `sms` SMs: the
// edge kernel with K split `splits` ways when `edges`, else the fast kernel (splits 1; a
// stream-K tile then loses no tail wave). Each block computes whole tiles and K slices, plus
// a fixed cost; blocks run in waves of one per SM.
inline double predict_time(const TunedShape &e, long long M, long long N, long long K, int sms, bool edges,
                           int splits) {
  const SgemmTile &t = e.tile;
  if (splits < 1) splits = 1;
  const long long slices = (K + t.BK - 1) / t.BK;
  const long long per_split = (slices + splits - 1) / splits;
  const double work = 2.0 * static_cast<double>(round_up_to(M, t.BM)) * static_cast<double>(round_up_to(N, t.BN)) *
                      static_cast<double>(t.BK) * splits * (static_cast<double>(per_split) + detail::kBlockOverheadSlices);
  const long long blocks = detail::tiles_over(M, N, t) * splits;
  const double efficiency = !edges && t.STREAMK ? 1.0 : detail::wave_efficiency(blocks, sms);
  double time = detail::kLaunchPs + work / (detail::full_wave_rate(e, sms) * efficiency);
  if (splits > 1)  // the scale pass, then every split adding all of C once
    time += detail::kLaunchPs +
            4.0 * static_cast<double>(M) * static_cast<double>(N) * (splits + 2) / detail::kSplitBytesPerPs;
  return edges ? time : time * detail::kFastKernelAdvantage;
}

// The predicted cost, in picoseconds, of packing `a_floats` and `b_floats` floats (0: that
// operand is not packed) into a workspace before the edge kernel: the allocation, and per
// operand a launch and the bytes read and written.
inline double predict_pack_time(long long a_floats, long long b_floats) {
  const auto copy = [](long long floats) {
    return floats > 0 ? detail::kLaunchPs + 8.0 * static_cast<double>(floats) / detail::kPackBytesPerPs : 0.0;
  };
  return detail::kWorkspacePs + copy(a_floats) + copy(b_floats);
}

// Whether packing then the edge kernel is predicted faster than the kernel of any operands,
// for a product whose edge kernel is predicted to take `edges_ps`.
inline bool pack_is_faster(double edges_ps, long long a_floats, long long b_floats) {
  return edges_ps + predict_pack_time(a_floats, b_floats) < edges_ps * detail::kAnyKernelSlowdown;
}

// The rule above. `fast_operands`: the fast kernel can read the operands
// (fast_kernel_layout); `sms`: the GPU's SM count.
inline Selection select_kernel(const TunedShape *entries, int count, long long M, long long N, long long K,
                               bool fast_operands, int sms) {
  Selection best{SelectKind::none, -1, false, 1, 0.0};
  if (M <= 0 || N <= 0 || K <= 0) return best;
  if (fast_operands)
    for (int i = 0; i < count; ++i) {
      const TunedShape &e = entries[i];
      if (e.M != M || e.N != N || e.K != K || !shape_fits_tile(e.tile, M, N, K)) continue;
      if (best.entry < 0 || e.percent_of_cublas > entries[best.entry].percent_of_cublas)
        best = Selection{SelectKind::exact, i, false, 1, 0.0};
    }
  if (best.entry >= 0) return best;
  auto consider = [&](int i, bool edges, int splits) {
    const double time = predict_time(entries[i], M, N, K, sms, edges, splits);
    if (best.entry < 0 || time < best.predicted_ps) best = Selection{SelectKind::predicted, i, edges, splits, time};
  };
  for (int i = 0; i < count; ++i) {
    const TunedShape &e = entries[i];
    if (!(e.tflops > 0) || e.M < 1 || e.N < 1 || e.K < 1) continue;
    if (fast_operands && shape_fits_tile(e.tile, M, N, K)) consider(i, false, 1);
    if (!shape_fits_tile_edges(e.tile, M, N, K)) continue;
    const long long slices = (K + e.tile.BK - 1) / e.tile.BK;
    for (int splits : detail::kSplitChoices)
      if (splits <= slices && splits <= kMaxSplitK) consider(i, true, splits);
  }
  return best;
}

}  // namespace sgemm_tune_kernels
