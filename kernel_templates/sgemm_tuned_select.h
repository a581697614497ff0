// Which tuned configuration serves a product, and how. One definition, used by the tuner's
// `best` command and by the headers `sgemm-tune emit` generates, so that both always give
// the same answer. Plain C++17: no CUDA, no standard library.
//
// The rule, for the entries tuned on the GPU in hand, for a product in row-major terms
// (sgemm_blas_call.h):
//   1. exact:     an entry tuned at exactly this shape whose tile divides it, when the fast
//                 kernel can read the operands (untransposed, 16-byte aligned rows): the
//                 timed kernel, launched as it was timed; or an entry tuned as a BLAS
//                 product of exactly this call's sizes, layout, ops and rows' alignment
//                 (exact_blas_entry in sgemm_blas_call.h): the kernel the tuner timed it
//                 on, split as the tuner split it;
//   2. predicted: otherwise the kernel predict_time ranks fastest among every entry's edge
//                 kernel (any shape, any operands) with K split 1 .. kMaxSplitK ways, and,
//                 for operands the fast kernel reads, the fast kernel of every entry whose
//                 tile divides the shape;
//   3. none:      no entry with a measured rate takes the shape.
// The prediction is a ranking, not a forecast. It counts each block's K slices and the
// waves its blocks take on this GPU's SMs, as many blocks to an SM as the tile's residency,
// a last wave that leaves SMs with fewer warps than their four schedulers want at a lower
// rate, and a split's extra pass and atomic traffic; it scales all of that by the time of a
// K slice that the tile was measured at when it ran full waves (the shape of most work it
// was timed at in its tuning). Its constants were fitted against the measured time of
// every choice for 59 problems in two tunings on the H200 (tools/replay_sweep;
// bench/results/2026-12-01-h200-selection-sweep), the block overhead and the split rates
// again on sweeps of the kernels as they stand (bench/results/2026-12-01-h200-interior-tiles,
// bench/results/2026-12-02-h200-skinny-tiles).
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
  // Blocks of the timed kernel an SM held; 0: unknown (counted as one).
  int blocks_per_sm;
  // The same tile timed at the shape of most work in the same tuning, where its blocks ran
  // full waves on every SM: what the prediction scales from. rate_tflops 0: none recorded
  // (the entry's own measurement is used).
  long long rate_M, rate_N, rate_K;
  double rate_tflops;
  // Timed as a BLAS product (a shape written with ops, "1000x1000x1000:NT"), on whichever of
  // the tile's kernels sgemm_tuned runs it with: an exact match only for its own call, as
  // blas_ops says (sgemm_blas_call.h's exact_blas_entry), never for a plain product of its
  // sizes, and a tile to predict with only from a rate the same tile reached on its fast
  // kernel at a plain shape (rate_tflops): a measurement on an edge kernel at a small
  // product, scaled as the fast kernel's full-wave rate, had the suite's large products
  // choose these tiles and run 10-15% slower (bench/results/2026-12-02-h200-blas-shapes,
  // call3). Left out (headers emitted before it): false.
  bool blas_product = false;
  // A BLAS product's layout and ops as the space wrote them (M, N, K as written too):
  // kBlasOpsRecorded, which sgemm-tune always sets, and the kBlas* bits of the ops. The
  // product sgemm_tuned takes as an exact match for this entry, on the kernel the tuner timed
  // (sgemm_blas_call.h's exact_blas_entry). Left out (a header emitted before the field), or
  // with bits sgemm-tune does not write: no exact match, whatever was tuned.
  unsigned blas_ops = 0;
};

// How many of TunedShape's fields a generated header's tables may write: a header checks it
// with the preprocessor, so that one written for newer kernel_templates says so when built
// against older ones (which lack the macro, or count fewer), instead of failing on its
// tables' initialisers.
#define SGEMM_TUNE_TUNED_SHAPE_FIELDS 13

// TunedShape::blas_ops: op(A) and op(B) transposed, operands column-major; and that the
// emitter recorded them (a field left out reads 0, which must not pass for row-major NN).
enum : unsigned {
  kBlasTransA = 1u << 0,
  kBlasTransB = 1u << 1,
  kBlasColMajor = 1u << 2,
  kBlasOpsRecorded = 1u << 3,
  kBlasOpsKnown = kBlasTransA | kBlasTransB | kBlasColMajor | kBlasOpsRecorded,
};

// What serves a product: entry `entry` (-1 for none), on its fast kernel or its edge
// kernel with K split `splits` ways (kEdgeTailSplit, 0: the tail split; kEdgeFillSplit, -1:
// the split that fills the GPU, only for an exact BLAS match), predicted to take
// `predicted_ps`.
struct Selection {
  SelectKind kind;
  int entry;
  bool edges;
  int splits;
  double predicted_ps;
};

// How a split of K adds its parts into C (and its scale pass, where it has one, sets C =
// beta C first). The
// edge kernel does so 16 bytes per atomic for any C it takes: rows 16-byte aligned as they
// lie, others realigned across the lanes of a line (store_run_realigned), a transposed C
// along its columns, where a thread's TM rows of a column are a run of C's memory, if the
// tile's TM is a multiple of 4. The kernel of any operands (B transposed) adds 4 bytes per
// atomic where C's rows are not 16-byte aligned or C is transposed, which takes the split's
// traffic about four times as long.
enum class SplitAdds {
  scalar,      // 4 bytes per atomic
  vector,      // 16 bytes per atomic
  transposed,  // C transposed on the edge kernel: vector where the tile's TM is a multiple of 4, else scalar
};

// The SplitAdds of a product whose edge-kernel operand bits (kOperand*) are `operands`. B
// transposed takes the kernel of any operands, or the edge kernel on a packed B: priced as
// the former, the slower, but where packing turns the product round (C then transposed) on
// a tile whose TM is not a multiple of 4: there an aligned C's parts are added 4 bytes at a
// time and priced at 16.
inline SplitAdds split_adds(int operands) {
  if (operands & kOperandTransB)
    return (operands & (kOperandScalar | kOperandTransC)) != 0 ? SplitAdds::scalar : SplitAdds::vector;
  return (operands & kOperandTransC) != 0 ? SplitAdds::transposed : SplitAdds::vector;
}

// The SplitAdds of tile t's kernel: `transposed` resolved by its TM.
inline SplitAdds split_adds_of_tile(SplitAdds adds, const SgemmTile &t) {
  if (adds != SplitAdds::transposed) return adds;
  return t.TM % 4 == 0 ? SplitAdds::vector : SplitAdds::scalar;
}

namespace detail {

// The model's constants, from the H200 (bench/results/2026-12-01-h200-selection-sweep; the
// split rates refitted on the sweeps of bench/results/2026-12-02-h200-skinny-tiles, calls 1
// and 2, with C's split parts added 16 bytes at a time where C allows; the block overhead
// and the rates of SMs with few warps on those and bench/results/2026-12-02-h200-medium-
// tiles, call2): a launch with its ramp up and down; a block's prologue and epilogue, in K
// slices; the rate at which C is scaled and split parts are added atomically, in bytes per
// picosecond (TB/s), 4 bytes per atomic and 16 (atomic_add4).
constexpr double kLaunchPs = 4.0e6;
constexpr double kBlockOverheadSlices = 3.0;
constexpr double kSplitBytesPerPs = 2.0;
constexpr double kSplitVectorBytesPerPs = 8.0;
// An SM's issue rate with one or two warps for each of its four schedulers, against three
// or more: with one warp the latency of shared-memory loads shows, and with two it still
// does (ncu, 1024x1536x512 TT: 1.5 warps per scheduler kept the issue slots 54% busy, where
// cuBLAS's 2.8 kept them 83%: bench/results/2026-12-02-h200-medium-tiles, call5). Refitted
// from 0.6 and 1.0 (and the block overhead from 2 slices) by replay_sweep on three sweeps,
// then measured through one header (same, call6): the 16 random problems whose choice
// changed 1.043x and 1.056x faster, the 32 others 1.005x and 1.009x.
constexpr double kOneWarpPerSchedulerRate = 0.45;
constexpr double kTwoWarpsPerSchedulerRate = 0.85;
// The fast kernel has no guards and may use stream-K: at the same predicted time it wins
// (not refitted since the edge kernel's interior tiles run unguarded too).
constexpr double kFastKernelAdvantage = 0.97;
// The edge kernel (and the kernel of any operands) of a tile of two warps a block: its
// predicted time times this, since it falls further behind what the rate measured on its
// fast kernel says than a tile of four warps does. The predicted choice's seven
// misses of 20% or more on session 23's sweep all took a two-warp tile (32 x 128 x 16 four
// times, 64 x 128 x 32 with 32 x 128 warps three) where a four-warp tile's measured 21-35%
// faster. Replayed on the four sweeps of tests/data (bench/results/2026-12-03-h200-
// transposed-alone/two_warp_replay_grid.txt), 1.1 gains on every one: the random sets +0.5
// to +2.7 points predicted, +0.3 to +0.7 measured of 8; the named shapes -0.6 to +2.2; the
// suite unchanged. 1.05 to 1.15 come within half a point of it.
constexpr double kFewWarpEdgeSlowdown = 1.1;
// The same for a tile of one warp a block (tile_threads <= 32), which falls further behind:
// its edge kernel's predicted time times 1.4, where it shared the two-warp tiles' 1.1
// before. On the graph-timed sweeps of a tuning of the workload space with one-warp tiles
// (bench/results/2026-12-06-spread-and-ab-twins, call 2, the H200, seeds 1 and 2) the
// predicted choice had taken the one-warp 32 x 32 x 16 tile's edge kernel where another
// tile's measured faster. Replayed at 1.4, the random sets went from 74.6% to 78.5% and
// 71.0% to 75.1% of cuBLAS, the seven other graph-timed sweeps by -0.3 to +1.9 points, the
// back-to-back sweeps of tests/data not at all but per_body's +0.1
// (bench/experiments/model_scan/fit.py; bench/NOTES.md, session 45); anything from 1.38 to
// 1.65 chooses the same there.
constexpr double kOneWarpEdgeSlowdown = 1.4;
// The kernel of any operands against the edge kernel at the same tile, as the choice between
// it and packing the operands sees it (fitted with the constants above; measured, the kernel
// of any operands takes 1.5 to 1.7 times the edge kernel's time at the same tile and split).
// Fitted before that kernel was split into a kernel per body, which made its plain body
// 1.03-1.05x faster (bench/results/2026-12-04-h200-edge-per-body, call 4); not refitted.
constexpr double kAnyKernelSlowdown = 1.3;
// The edge kernel's narrow bodies (rows of A or B not 16-byte aligned: 4-byte accesses)
// against its wide ones, as the same choice sees it.
constexpr double kNarrowKernelSlowdown = 1.15;
// Packing operands: a copy kernel per operand, at this many bytes per picosecond (read and
// written), and the workspace's allocation from the header's pool, which keeps its memory.
constexpr double kPackBytesPerPs = 2.0;
constexpr double kWorkspacePs = 2.0e6;
// The splits tried: few enough that a call's selection stays cheap.
constexpr int kSplitChoices[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64};

inline long long tiles_over(long long M, long long N, const SgemmTile &t) {
  return ((M + t.BM - 1) / t.BM) * ((N + t.BN - 1) / t.BN);
}

inline long long k_slices(long long K, const SgemmTile &t) { return (K + t.BK - 1) / t.BK; }

inline int resident_blocks(const TunedShape &e) { return e.blocks_per_sm > 0 ? e.blocks_per_sm : 1; }

// An SM's issue rate with `warps` resident, relative to every scheduler having three or more.
inline double sm_rate(double warps) {
  if (warps <= 0) return 0;
  const double schedulers = warps < 4 ? warps : 4;
  const double per_scheduler = warps / schedulers;
  const double rate = per_scheduler < 1.5   ? kOneWarpPerSchedulerRate
                      : per_scheduler < 2.5 ? kTwoWarpsPerSchedulerRate
                                            : 1.0;
  return schedulers / 4 * rate;
}

// The time `blocks` blocks of `slices` K slices each take, in units of one block's K slice
// on an SM holding the tile's full residency: whole waves, then a last wave whose busiest
// SM holds b of its r blocks and runs each faster, as far as its fewer warps let it.
inline double block_units(const TunedShape &e, long long blocks, long long slices, int sms) {
  if (sms < 1) sms = 1;
  const long long r = resident_blocks(e);
  const double warps = static_cast<double>(tile_threads(e.tile) / 32);
  const long long slots = sms * r;
  const long long waves = blocks / slots, rest = blocks - waves * slots;
  const double per_block = static_cast<double>(slices) + kBlockOverheadSlices;
  double units = static_cast<double>(waves) * per_block;
  if (rest > 0) {
    const long long b = (rest + sms - 1) / sms;
    units += per_block * static_cast<double>(b) / static_cast<double>(r) * sm_rate(static_cast<double>(r) * warps) /
             sm_rate(static_cast<double>(b) * warps);
  }
  return units;
}

// The same for the stream-K fast kernel, which spreads every tile's K slices evenly over
// one wave of persistent blocks.
inline double stream_k_units(const TunedShape &e, long long M, long long N, long long K, int sms) {
  if (sms < 1) sms = 1;
  // In double: the slices of a shape near the kernels' limits overflow 64-bit integers.
  const double per_block = static_cast<double>(tiles_over(M, N, e.tile)) * static_cast<double>(k_slices(K, e.tile)) /
                           (static_cast<double>(sms) * resident_blocks(e));
  return (per_block > 1.0 ? per_block : 1.0) + kBlockOverheadSlices;
}

// The fast kernel's time on M x N x K in those units.
inline double fast_units(const TunedShape &e, long long M, long long N, long long K, int sms) {
  return e.tile.STREAMK ? stream_k_units(e, M, N, K, sms) : block_units(e, tiles_over(M, N, e.tile), k_slices(K, e.tile), sms);
}

// Picoseconds per unit: the reference measurement (rate_*, else the entry's own) with the
// launch taken out (at most half of it: a measurement is never all overhead), over its units.
inline double unit_ps(const TunedShape &e, int sms) {
  const bool reference = e.rate_tflops > 0 && e.rate_M > 0 && e.rate_N > 0 && e.rate_K > 0;
  const long long M = reference ? e.rate_M : e.M, N = reference ? e.rate_N : e.N, K = reference ? e.rate_K : e.K;
  const double tflops = reference ? e.rate_tflops : e.tflops;
  const double measured = 2.0 * static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(K) / tflops;
  const double compute = measured - kLaunchPs > 0.5 * measured ? measured - kLaunchPs : 0.5 * measured;
  return compute / fast_units(e, M, N, K, sms);
}

}  // namespace detail

namespace detail {

// The tail split of entry e's edge kernel on M x N x K as the model sees it: over the slots
// of `sms` SMs at the residency of the entry's timed kernel (the launch counts the edge
// kernel's own, which may be fewer: more registers).
inline TailSplit model_tail_split(const TunedShape &e, long long M, long long N, long long K, int sms) {
  return tile_edges_tail_split(e.tile, M, N, K, static_cast<long long>(sms < 1 ? 1 : sms) * resident_blocks(e));
}

// predict_time with the entry's unit_ps already known (select_kernel computes it once per
// entry, not once per split: the selection runs on every call).
inline double predict_time_at(const TunedShape &e, double ps_per_unit, long long M, long long N, long long K, int sms,
                              bool edges, int splits, SplitAdds adds, const ClusterSlots *clusters) {
  const bool tail = edges && splits == kEdgeTailSplit;
  const double few_warps = !edges                      ? 1.0
                          : tile_threads(e.tile) <= 32 ? kOneWarpEdgeSlowdown
                          : tile_threads(e.tile) <= 64 ? kFewWarpEdgeSlowdown
                                                       : 1.0;
  if (edges && splits == kEdgeFillSplit)
    splits = tile_edges_fill_splits(e.tile, M, N, K, static_cast<long long>(sms < 1 ? 1 : sms) * resident_blocks(e));
  if (!tail && (splits < 1 || !edges)) splits = 1;
  const double rate = split_adds_of_tile(adds, e.tile) == SplitAdds::vector ? kSplitVectorBytesPerPs : kSplitBytesPerPs;
  if (tail) {
    // The whole waves as data-parallel blocks, then the last wave's tiles in parts; where it
    // splits, the scale pass and each split tile's parts added into C.
    const TailSplit ts = model_tail_split(e, M, N, K, sms);
    const long long slices = k_slices(K, e.tile), per_part = (slices + ts.parts - 1) / ts.parts;
    double units = block_units(e, ts.whole, slices, sms);
    if (ts.rest > 0) units += block_units(e, ts.rest * ts.parts, per_part, sms);
    double time = kLaunchPs + units * ps_per_unit;
    if (ts.rest > 0)
      time += kLaunchPs + 4.0 * static_cast<double>(ts.rest) * e.tile.BM * e.tile.BN * (ts.parts + 2) / rate;
    return time * few_warps;
  }
  const long long per_split = (k_slices(K, e.tile) + splits - 1) / splits;
  const double units = edges ? block_units(e, tiles_over(M, N, e.tile) * splits, per_split, sms)
                             : fast_units(e, M, N, K, sms);
  double time = kLaunchPs + units * ps_per_unit;
  // Split as clusters (cluster_split_fits, at the entry's blocks per SM): split 0 stores C as
  // an unsplit tile does, and the others, waiting on it, add theirs. Otherwise the scale pass
  // first, a launch, then every split adding all of C once.
  if (splits > 1 && clusters && cluster_split_fits(splits, tiles_over(M, N, e.tile), *clusters, resident_blocks(e)))
    time += 4.0 * static_cast<double>(M) * static_cast<double>(N) * splits / rate;
  else if (splits > 1)
    time += kLaunchPs + 4.0 * static_cast<double>(M) * static_cast<double>(N) * (splits + 2) / rate;
  return edges ? time * few_warps : time * kFastKernelAdvantage;
}

}  // namespace detail

// Whether the edge kernel of tile t can split K `splits` ways: at least one K slice each,
// and no more parts than the kernel's grid takes; or run the tail split or the fill split
// (kEdgeTailSplit, kEdgeFillSplit), which take any K (their grid is the launch's to check:
// it depends on the shape and the GPU).
inline bool k_split_fits(const SgemmTile &t, long long K, int splits) {
  if (splits == kEdgeTailSplit || splits == kEdgeFillSplit) return K >= 1;
  return splits >= 1 && splits <= detail::k_slices(K, t) && splits <= kMaxSplitK;
}

// The predicted time, in picoseconds, of entry e's kernel on M x N x K with `sms` SMs: the
// edge kernel with K split `splits` ways (kEdgeTailSplit: the tail split; kEdgeFillSplit: the split
// that fills the GPU, at the entry's residency), adding its parts as `adds`
// says, when `edges`, else the fast kernel (splits 1). `clusters`: the GPU's ClusterSlots at
// one block per SM, where a split of K that cluster_split_fits them at the entry's blocks per
// SM runs as clusters, with no scale pass (kOperandClusterSplit); null where none does.
inline double predict_time(const TunedShape &e, long long M, long long N, long long K, int sms, bool edges,
                           int splits, SplitAdds adds, const ClusterSlots *clusters = nullptr) {
  return detail::predict_time_at(e, detail::unit_ps(e, sms), M, N, K, sms, edges, splits, adds, clusters);
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

// The time of a product whose edge kernel on aligned operands is predicted to take
// `edges_ps`, as its operands lie: on the kernel of any operands (`any`, B transposed) or
// the edge kernel's narrow bodies.
inline double predict_as_they_lie(double edges_ps, bool any) {
  return edges_ps * (any ? detail::kAnyKernelSlowdown : detail::kNarrowKernelSlowdown);
}

// The same after packing a_floats of A and b_floats of B (PackScope::all).
inline double predict_packed(double edges_ps, long long a_floats, long long b_floats) {
  return edges_ps + predict_pack_time(a_floats, b_floats);
}

// The same after packing the transposed operand alone (`floats` of it,
// PackScope::transposed_only), the narrow bodies reading the other as it lies.
inline double predict_transposed_packed(double edges_ps, long long floats) {
  return edges_ps * detail::kNarrowKernelSlowdown + predict_pack_time(0, floats);
}

// Whether the fast kernel of a tile can read a product's operands: they lie as it reads them
// (`layout`: fast_kernel_layout in sgemm_blas_call.h, none transposed, every row 16-byte
// aligned), and its int offsets reach their leading dimensions, which depends on the tile
// (leading_dimensions_fit_tile). The shape is the tile's business too (shape_fits_tile).
struct FastOperands {
  bool layout;
  long long lda, ldb, ldc;
  constexpr bool fit(const SgemmTile &t) const { return layout && leading_dimensions_fit_tile(t, lda, ldb, ldc); }
};

// The plain entry tuned at exactly M x N x K whose fast kernel reads the operands (rule 1's
// first half), the highest percent of cuBLAS where several are; -1 for none.
inline int exact_plain_entry(const TunedShape *entries, int count, long long M, long long N, long long K,
                             const FastOperands &fast) {
  int exact = -1;
  if (!fast.layout) return exact;
  for (int i = 0; i < count; ++i) {
    const TunedShape &e = entries[i];
    if (e.blas_product || e.M != M || e.N != N || e.K != K || !shape_fits_tile(e.tile, M, N, K) || !fast.fit(e.tile))
      continue;
    if (exact < 0 || e.percent_of_cublas > entries[exact].percent_of_cublas) exact = i;
  }
  return exact;
}

// The rule above, keeping the `capacity` kernels predicted fastest rather than one:
// writes them to `out`, fastest first, and returns how many there are (0: none takes the
// shape). An exact match, which the tuner timed at this very shape, is the one candidate.
// What a header that measures its choice (sgemm_tune::Dispatch::measured) times on a
// product's first call, and what select_kernel keeps the first of. `fast`: which tiles' fast
// kernels can read the operands; `sms`: the GPU's SM count; `adds`: how a split of K adds its
// parts into this product's C (split_adds). Each edge kernel is weighed at every split of
// kSplitChoices and, unless `tail_split` is false (a replay of timings taken before the
// edge kernel had it), with the tail split; with `clusters` (the GPU's ClusterSlots at one
// block per SM), its splits that cluster_split_fits as clusters (null: the GPU or the
// machine code has none, or a replay of timings taken before).
inline int select_kernels(const TunedShape *entries, int count, long long M, long long N, long long K,
                          const FastOperands &fast, int sms, SplitAdds adds, Selection *out, int capacity,
                          bool tail_split = true, const ClusterSlots *clusters = nullptr) {
  if (capacity < 1 || M <= 0 || N <= 0 || K <= 0) return 0;
  const int exact = exact_plain_entry(entries, count, M, N, K, fast);
  if (exact >= 0) {
    out[0] = Selection{SelectKind::exact, exact, false, 1, 0.0};
    return 1;
  }
  int kept = 0;
  double ps_per_unit = 0;
  auto consider = [&](int i, bool edges, int splits) {
    const double time =
        detail::predict_time_at(entries[i], ps_per_unit, M, N, K, sms, edges, splits, adds, clusters);
    // A prediction that is not a finite positive time (an entry's figures out of all
    // reason) never wins, nor blocks a later one.
    if (!(time > 0 && time < 1e300)) return;
    if (kept == capacity && !(time < out[kept - 1].predicted_ps)) return;
    // Insertion into the list, fastest first; at equal times the earlier candidate stays ahead.
    int at = kept < capacity ? kept++ : kept - 1;
    for (; at > 0 && time < out[at - 1].predicted_ps; --at) out[at] = out[at - 1];
    out[at] = Selection{SelectKind::predicted, i, edges, splits, time};
  };
  for (int i = 0; i < count; ++i) {
    const TunedShape &e = entries[i];
    if (!(e.tflops > 0) || e.M < 1 || e.N < 1 || e.K < 1) continue;
    if (e.blas_product && !(e.rate_tflops > 0 && e.rate_M > 0 && e.rate_N > 0 && e.rate_K > 0)) continue;
    ps_per_unit = detail::unit_ps(e, sms);
    if (fast.fit(e.tile) && shape_fits_tile(e.tile, M, N, K)) consider(i, false, 1);
    if (!shape_fits_tile_edges(e.tile, M, N, K)) continue;
    for (int splits : detail::kSplitChoices)
      if (k_split_fits(e.tile, K, splits)) consider(i, true, splits);
    // The tail split where, as the model sees it, it splits some tile (else it is the whole-K
    // launch again) and its grid fits (a product of more tiles than a 1-D grid holds is split
    // or whole instead).
    if (tail_split) {
      const TailSplit ts = detail::model_tail_split(e, M, N, K, sms);
      if (ts.parts > 1 && ts.grid_x != 0) consider(i, true, kEdgeTailSplit);
    }
  }
  return kept;
}

// The rule above: the one kernel select_kernels ranks first (entry -1 for none).
inline Selection select_kernel(const TunedShape *entries, int count, long long M, long long N, long long K,
                               const FastOperands &fast, int sms, SplitAdds adds) {
  Selection best{SelectKind::none, -1, false, 1, 0.0};
  select_kernels(entries, count, M, N, K, fast, sms, adds, &best, 1);
  return best;
}

}  // namespace sgemm_tune_kernels
