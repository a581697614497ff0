// A BLAS (CBLAS) SGEMM call: its layout and operand ops, the checks of its arguments, and
// the one row-major product every call becomes before any kernel sees it. One definition,
// used by the run-time half of generated headers (sgemm_tuned_runtime.cuh), by the launch
// code the tuner shares with them (sgemm_launch.h) and by the tests, which call it on a
// machine without a GPU. Plain C++17, no CUDA: nothing here
// touches the GPU, so a bad argument is refused before the GPU is.
//
// The call is C = alpha op(A) op(B) + beta C with C M x N, op(A) M x K, op(B) K x N, each
// stored in `layout` with its leading dimension (the distance between consecutive rows of
// a row-major matrix, columns of a column-major one), as cblas_sgemm takes them.
#pragma once

#include <cstdint>

#include "sgemm_tile_rules.h"
#include "sgemm_tuned_select.h"

namespace sgemm_tune {

enum class Layout { RowMajor, ColMajor };
enum class Op { NoTrans, Trans };

}  // namespace sgemm_tune

namespace sgemm_tune_kernels {

// The product in row-major terms: C (M x N, rows ldc apart) = alpha op(A) op(B) + beta C,
// where A and B are row-major with rows lda and ldb apart, transposed where trans_a,
// trans_b say.
struct RowMajorGemm {
  int M, N, K;
  float alpha;
  const float *A;
  int lda;
  bool trans_a;
  const float *B;
  int ldb;
  bool trans_b;
  float beta;
  float *C;
  int ldc;
  bool trans_c = false;  // C stored transposed: element (i, j) at C[j * ldc + i] (edge_product)
};

// The leading dimensions of dense operands: the least CBLAS allows for the layout and ops
// (a row-major A M x K has rows K apart; transposed, stored K x M, M apart; column-major, a
// leading dimension is the length of a column).
struct DenseLeadingDims {
  int lda, ldb, ldc;
};
constexpr DenseLeadingDims dense_leading_dims(sgemm_tune::Layout layout, sgemm_tune::Op op_a, sgemm_tune::Op op_b,
                                              int M, int N, int K) {
  const bool ta = op_a == sgemm_tune::Op::Trans, tb = op_b == sgemm_tune::Op::Trans;
  if (layout == sgemm_tune::Layout::RowMajor) return DenseLeadingDims{ta ? M : K, tb ? K : N, N};
  return DenseLeadingDims{ta ? K : M, tb ? N : K, M};
}

// A column-major matrix is the row-major matrix of its transpose with the same leading
// dimension, so column-major C = op(A) op(B) is row-major C^T = op(B)^T op(A)^T: B's memory
// becomes the left operand and A's the right, M and N swap, and each op stays with its
// operand's memory (a column-major B read NoTrans is row-major B^T, which is op(B)^T; read
// Trans it is row-major B, which is op(B)^T again, now through a transposed read).
constexpr RowMajorGemm to_row_major(sgemm_tune::Layout layout, sgemm_tune::Op op_a, sgemm_tune::Op op_b, int M,
                                    int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
                                    float beta, float *C, int ldc) {
  const bool ta = op_a == sgemm_tune::Op::Trans, tb = op_b == sgemm_tune::Op::Trans;
  if (layout == sgemm_tune::Layout::RowMajor) return RowMajorGemm{M, N, K, alpha, A, lda, ta, B, ldb, tb, beta, C, ldc};
  return RowMajorGemm{N, M, K, alpha, B, ldb, tb, A, lda, ta, beta, C, ldc};
}

constexpr int at_least_one(int v) { return v > 1 ? v : 1; }

// The dense row-major product (rows K, N and N floats apart): the nine-argument shorthand.
// Leading dimensions of at least 1, as BLAS asks even of an empty matrix.
constexpr RowMajorGemm dense_row_major(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                       float *C) {
  return RowMajorGemm{M, N, K, alpha, A, at_least_one(K), false, B, at_least_one(N), false, beta, C, at_least_one(N)};
}

// What a call asks for, decided from its arguments alone.
enum class GemmCheck {
  run,            // launch
  nothing_to_do,  // M or N is 0: C is empty (success, nothing read or written)
  invalid,        // a negative size, a leading dimension below what the layout needs, or a
                  // null operand that would be read: cudaErrorInvalidValue
};

// The checks of the reference BLAS, in its order: sizes, then leading dimensions (each at
// least the row length of the matrix stored, and at least 1, even when a size is 0); then
// an empty C returns; then the pointers that would be used (A and B only when K > 0 and
// alpha != 0: with alpha = 0 the product is C = beta C, as the reference BLAS computes it).
constexpr GemmCheck check_gemm(const RowMajorGemm &g) {
  if (g.M < 0 || g.N < 0 || g.K < 0) return GemmCheck::invalid;
  if (g.lda < at_least_one(g.trans_a ? g.M : g.K)) return GemmCheck::invalid;
  if (g.ldb < at_least_one(g.trans_b ? g.K : g.N)) return GemmCheck::invalid;
  if (g.ldc < at_least_one(g.N)) return GemmCheck::invalid;
  if (g.M == 0 || g.N == 0) return GemmCheck::nothing_to_do;
  if (g.C == nullptr) return GemmCheck::invalid;
  if (g.K > 0 && g.alpha != 0.0f && (g.A == nullptr || g.B == nullptr)) return GemmCheck::invalid;
  return GemmCheck::run;
}

inline bool aligned16(const void *p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// Whether every row of A, B, C starts 16-byte aligned: what float4 accesses and 16-byte
// copies need.
inline bool a_rows_aligned16(const RowMajorGemm &g) { return g.lda % 4 == 0 && aligned16(g.A); }
inline bool b_rows_aligned16(const RowMajorGemm &g) { return g.ldb % 4 == 0 && aligned16(g.B); }
inline bool c_rows_aligned16(const RowMajorGemm &g) { return g.ldc % 4 == 0 && aligned16(g.C); }
inline bool rows_aligned16(const RowMajorGemm &g) {
  return a_rows_aligned16(g) && b_rows_aligned16(g) && c_rows_aligned16(g);
}

// Whether the fast kernel can read the operands as it is written to: none transposed,
// every row 16-byte aligned. The shape is the tile's business (shape_fits_tile).
inline bool fast_kernel_layout(const RowMajorGemm &g) {
  return !g.trans_a && !g.trans_b && !g.trans_c && rows_aligned16(g);
}

// Which tiles' fast kernels can read the product's operands (select_kernels): as they lie
// (fast_kernel_layout), with leading dimensions each tile's int offsets reach.
inline FastOperands fast_operands(const RowMajorGemm &g) {
  return FastOperands{fast_kernel_layout(g), g.lda, g.ldb, g.ldc};
}

// Whether the edge kernel reads A and B with 16-byte accesses (else 4-byte ones, slower).
inline bool wide_edge_operands(const RowMajorGemm &g) { return a_rows_aligned16(g) && b_rows_aligned16(g); }

// The edge kernels' `operands` for the product (kOperand* in sgemm_tile_rules.h). Each
// width from its own operands: kOperandNarrowAB where a row of A or B is not 16-byte
// aligned, kOperandScalar where a row of C is not, so that an aligned C is stored (and a
// split added) 16 bytes at a time whatever A and B are. (kOperandScalar once stood for any
// of the three, which put every narrow product's C on 4-byte stores and atomics.)
inline int edge_operands(const RowMajorGemm &g) {
  return (g.trans_a ? kOperandTransA : 0) | (g.trans_b ? kOperandTransB : 0) | (g.trans_c ? kOperandTransC : 0) |
         (c_rows_aligned16(g) ? 0 : kOperandScalar) | (wide_edge_operands(g) ? 0 : kOperandNarrowAB);
}

// Whether the edge kernel can run the product as it lies: B untransposed, A either way (a
// transposed A, stored K x M, is copied into the stage as it lies, which the stage wants),
// rows aligned or not (A and B unaligned take its narrow bodies; C's epilogue handles an
// unaligned or transposed C).
inline bool plain_edge_operands(const RowMajorGemm &g) { return !g.trans_b; }

// The same product transposed: C^T = op(B)^T op(A)^T, B's memory the left operand and A's
// the right, each read the other way, C written the other way.
inline RowMajorGemm transposed_product(const RowMajorGemm &g) {
  return RowMajorGemm{g.N, g.M,     g.K,      g.alpha, g.B, g.ldb, !g.trans_b, g.A,
                      g.lda, !g.trans_a, g.beta, g.C,     g.ldc, !g.trans_c};
}

// The product as the edge kernel runs it, with its operand bits. Both operands transposed,
// C = A^T B^T is C^T = B A: B (stored N x K) and A (stored K x M) read untransposed, which
// spares the transposed B's slower path, and C written transposed.
struct EdgeProduct {
  RowMajorGemm g;
  int operands;
};
inline EdgeProduct edge_product(const RowMajorGemm &g) {
  if (!(g.trans_a && g.trans_b) || g.trans_c) return EdgeProduct{g, edge_operands(g)};
  const RowMajorGemm t = transposed_product(g);
  return EdgeProduct{t, edge_operands(t)};
}

// An edge launch of a product on tile t: the product as edge_product turns it, with its
// operand bits, and the body (kEdgeBody*) whose kernel runs it (edge_kernel_body). What
// the run-time's and the tuner's launches of an edge kernel or a kernel of any operands
// start from, so that what is timed and what ships pick the same kernel.
struct EdgeLaunch {
  RowMajorGemm g;
  int operands;
  int body;
};
inline EdgeLaunch edge_launch(const SgemmTile &t, const RowMajorGemm &product) {
  const EdgeProduct e = edge_product(product);
  return EdgeLaunch{e.g, e.operands, edge_kernel_body(t, e.operands, e.g.lda, e.g.ldb, e.g.ldc)};
}

// Which operands packing copies. `all`: every one the edge kernel cannot read as it lies, or
// reads only 4 bytes at a time. `transposed_only`: a transposed B alone, the other left
// to the narrow bodies where its rows are not aligned: what a product of one large operand
// with unaligned rows and a small transposed one wants, since copying the large one costs
// more than reading it 4 bytes at a time (a row-major A B^T of M = 100, N = 4072, K = 3839,
// both leading dimensions K: 384 K floats to transpose, against 16 M with A).
enum class PackScope { all, transposed_only };

// Operands copied into a workspace, with rows 16-byte aligned, as `scope` says: A (rows not
// aligned) as it lies, M x K or, transposed, K x M, rows a_ld apart, at the workspace's
// start; B (transposed, or rows not aligned) as a plain K x N matrix, rows b_ld apart, at
// b_offset bytes. For a product as edge_product leaves it.
struct PackPlan {
  bool a, b;
  int a_ld, b_ld;
  long long b_offset, bytes;  // 0 bytes: nothing to pack
};
inline PackPlan pack_plan(const RowMajorGemm &g, PackScope scope = PackScope::all) {
  const bool every = scope == PackScope::all;
  PackPlan p{every && !a_rows_aligned16(g), g.trans_b || (every && !b_rows_aligned16(g)), 0, 0, 0, 0};
  p.a_ld = static_cast<int>(round_up_to(g.trans_a ? g.M : g.K, 4));
  p.b_ld = static_cast<int>(round_up_to(g.N, 4));
  const long long a_rows = g.trans_a ? g.K : g.M;
  const long long a_bytes = p.a ? round_up_to(4LL * a_rows * p.a_ld, 256) : 0;
  p.b_offset = a_bytes;
  p.bytes = a_bytes + (p.b ? 4LL * g.K * p.b_ld : 0);
  return p;
}

// The floats packing copies, per operand (0: not packed): what each copy's launch and
// traffic cost.
struct PackedFloats {
  long long a, b;
  long long total() const { return a + b; }
};
inline PackedFloats packed_floats(const RowMajorGemm &g, const PackPlan &p) {
  return PackedFloats{p.a ? static_cast<long long>(g.M) * g.K : 0, p.b ? static_cast<long long>(g.K) * g.N : 0};
}

// The product as it is packed for the edge kernel of tile t: edge_product's, or, where that
// copies fewer floats under `scope` and the tile takes the shape, its transpose. A B^T has
// one operand to transpose either way (B, or A once the product is turned round), so the
// smaller one is. The selection predicts the edge kernel on the product as edge_product
// leaves it; turned, its grid is N x M tiles instead, which a tile with BM != BN covers with
// other remainders.
inline RowMajorGemm pack_form(const RowMajorGemm &product, const SgemmTile &t, PackScope scope = PackScope::all) {
  const RowMajorGemm g = edge_product(product).g;
  if (g.trans_a || !g.trans_b) return g;
  const RowMajorGemm turned = transposed_product(g);
  if (packed_floats(turned, pack_plan(turned, scope)).total() < packed_floats(g, pack_plan(g, scope)).total() &&
      shape_fits_tile_edges(t, turned.M, turned.N, turned.K))
    return turned;
  return g;
}

// The floats packing under `scope` copies for the edge kernel of tile t, in the form it takes
// (pack_form): what the selection prices a packed route by.
inline PackedFloats packed_floats_for(const RowMajorGemm &product, const SgemmTile &t, PackScope scope) {
  const RowMajorGemm g = pack_form(product, t, scope);
  return packed_floats(g, pack_plan(g, scope));
}

// Whether packing the transposed operand alone (PackScope::transposed_only) differs from
// packing every operand that wants it: B is transposed and, in the form that packing takes,
// A's rows are not aligned, so that the narrow bodies read A as it lies instead of a copy.
inline bool transposed_alone_differs(const RowMajorGemm &product, const SgemmTile &t) {
  const RowMajorGemm g = pack_form(product, t, PackScope::transposed_only);
  return g.trans_b && !a_rows_aligned16(g);
}

// All that decides which kernel runs a product, and how (sgemm_tuned_runtime.cuh's route):
// its sizes, leading dimensions and orientations, and whether each operand's rows are
// 16-byte aligned; the pointers themselves only through that. Two products with equal keys
// take the same route on the same device with the same tunings, so a route can be
// remembered under its key.
struct RouteKey {
  int M, N, K, lda, ldb, ldc;
  unsigned bits;  // kRouteKey* below
  friend bool operator==(const RouteKey &a, const RouteKey &b) {
    return a.M == b.M && a.N == b.N && a.K == b.K && a.lda == b.lda && a.ldb == b.ldb && a.ldc == b.ldc &&
           a.bits == b.bits;
  }
};
enum : unsigned {
  kRouteKeyTransA = 1u << 0,
  kRouteKeyTransB = 1u << 1,
  kRouteKeyTransC = 1u << 2,
  kRouteKeyAlignedA = 1u << 3,
  kRouteKeyAlignedB = 1u << 4,
  kRouteKeyAlignedC = 1u << 5,
};
inline RouteKey route_key(const RowMajorGemm &g) {
  const unsigned bits = (g.trans_a ? kRouteKeyTransA : 0u) | (g.trans_b ? kRouteKeyTransB : 0u) |
                        (g.trans_c ? kRouteKeyTransC : 0u) | (a_rows_aligned16(g) ? kRouteKeyAlignedA : 0u) |
                        (b_rows_aligned16(g) ? kRouteKeyAlignedB : 0u) | (c_rows_aligned16(g) ? kRouteKeyAlignedC : 0u);
  return RouteKey{g.M, g.N, g.K, g.lda, g.ldb, g.ldc, bits};
}

// The product reading its packed operands from `workspace` (laid out as `p` says).
inline RowMajorGemm packed_product(const RowMajorGemm &g, const PackPlan &p, void *workspace) {
  RowMajorGemm out = g;
  if (p.a) {
    out.A = static_cast<const float *>(workspace);
    out.lda = p.a_ld;
  }
  if (p.b) {
    out.B = reinterpret_cast<const float *>(static_cast<const char *>(workspace) + p.b_offset);
    out.ldb = p.b_ld;
    out.trans_b = false;
  }
  return out;
}
// Whether a product needs the kernel of any operands (or packing), rather than the edge
// kernel: B transposed (as edge_product leaves the product).
inline bool needs_any_kernel(const RowMajorGemm &g) { return !plain_edge_operands(edge_product(g).g); }

// Which of a tile's kernels runs a product when that tile alone serves it: the fast kernel
// where it can read the operands (fast_operands) and the tile divides the shape, else the
// kernel of any operands where B stays transposed, else the edge kernel. How the tuner
// times a BLAS product on each tile (tuner/time/shape_route.h), and so how an exact match
// for one runs (exact_blas_entry).
enum class TileKernel { fast, edges, any };
inline TileKernel tile_kernel_for(const SgemmTile &t, const RowMajorGemm &g) {
  if (fast_operands(g).fit(t) && shape_fits_tile(t, g.M, g.N, g.K)) return TileKernel::fast;
  return needs_any_kernel(g) ? TileKernel::any : TileKernel::edges;
}

// The split of K that kernel runs with there: the fast kernel none (1), the edge kernel its
// tail split, the kernel of any operands, which has none, the split that fills the GPU.
constexpr int tile_kernel_splits(TileKernel k) {
  return k == TileKernel::fast ? 1 : k == TileKernel::edges ? kEdgeTailSplit : kEdgeFillSplit;
}

// The row-major product a BLAS entry (TunedShape::blas_product) was timed at: its sizes,
// layout and ops on dense operands (dense_leading_dims) at aligned addresses, which the null
// pointers stand for. `fits`: false where a size is beyond an int (no call has it), or
// blas_ops does not say what was tuned (not recorded: a header emitted before the field; or
// bits sgemm-tune does not write).
inline RowMajorGemm tuned_blas_product(const TunedShape &e, bool *fits) {
  constexpr long long kInt = 2147483647;
  *fits = e.M >= 1 && e.N >= 1 && e.K >= 1 && e.M <= kInt && e.N <= kInt && e.K <= kInt &&
          (e.blas_ops & kBlasOpsRecorded) != 0 && (e.blas_ops & ~kBlasOpsKnown) == 0;
  if (!*fits) return RowMajorGemm{0, 0, 0, 1.0f, nullptr, 1, false, nullptr, 1, false, 0.0f, nullptr, 1};
  const sgemm_tune::Layout layout =
      (e.blas_ops & kBlasColMajor) != 0 ? sgemm_tune::Layout::ColMajor : sgemm_tune::Layout::RowMajor;
  const sgemm_tune::Op op_a = (e.blas_ops & kBlasTransA) != 0 ? sgemm_tune::Op::Trans : sgemm_tune::Op::NoTrans;
  const sgemm_tune::Op op_b = (e.blas_ops & kBlasTransB) != 0 ? sgemm_tune::Op::Trans : sgemm_tune::Op::NoTrans;
  const int M = static_cast<int>(e.M), N = static_cast<int>(e.N), K = static_cast<int>(e.K);
  const DenseLeadingDims ld = dense_leading_dims(layout, op_a, op_b, M, N, K);
  return to_row_major(layout, op_a, op_b, M, N, K, 1.0f, nullptr, ld.lda, nullptr, ld.ldb, 0.0f, nullptr, ld.ldc);
}

// The entry tuned as a BLAS product of exactly this call, -1 for none (the highest percent
// of cuBLAS where several are): its dense product has the call's sizes and orientations in
// row-major terms (a column-major call matches the row-major product it is the same
// computation as), every row of A, B and C 16-byte aligned where the tuned one's were and
// not where they were not, and the call runs on the same kernel of its tile
// (tile_kernel_for): the machine code the tuner timed, over the same tiles, split the same
// way. Leading dimensions larger than dense ones are taken where they keep that alignment
// and stay within the tile's int offsets as the dense ones did: they change which addresses
// are read, not what runs.
inline int exact_blas_entry(const TunedShape *shapes, int n, const RowMajorGemm &product) {
  const RouteKey call = route_key(product);
  int best = -1;
  for (int i = 0; i < n; ++i) {
    const TunedShape &e = shapes[i];
    if (!e.blas_product || !(e.tflops > 0)) continue;
    bool fits = false;
    const RowMajorGemm tuned = tuned_blas_product(e, &fits);
    if (!fits) continue;
    const RouteKey key = route_key(tuned);
    if (key.M != call.M || key.N != call.N || key.K != call.K || key.bits != call.bits) continue;
    const TileKernel kernel = tile_kernel_for(e.tile, product);
    if (kernel != tile_kernel_for(e.tile, tuned)) continue;
    if (leading_dimensions_fit_tile(e.tile, product.lda, product.ldb, product.ldc) !=
        leading_dimensions_fit_tile(e.tile, tuned.lda, tuned.ldb, tuned.ldc))
      continue;
    const RowMajorGemm g = edge_product(product).g;
    if (kernel != TileKernel::fast && !shape_fits_tile_edges(e.tile, g.M, g.N, g.K)) continue;
    // The tail split's 1-D grid must hold the product's tiles (it adds at most a wave's parts).
    if (kernel == TileKernel::edges && tile_edges_tail_split(e.tile, g.M, g.N, g.K, 1).grid_x == 0) continue;
    if (best < 0 || e.percent_of_cublas > shapes[best].percent_of_cublas) best = i;
  }
  return best;
}

// The `capacity` selections predicted fastest for `product` among `n` entries on a GPU of
// `sms` SMs (select_kernels on the product the edge kernel computes), fastest first, into
// `out`; returns how many. An entry tuned as a BLAS product of exactly this call
// (exact_blas_entry) is the one candidate, as the tuner ran it, unless a plain entry tuned at
// the same product (exact_plain_entry: "1024x1024x1024" beside "1024x1024x1024:NN") reached
// a higher percent of cuBLAS. `tail_split`: as
// select_kernels takes it (false: none of the entries was timed with the tail split, and
// none is taken as an exact BLAS match); never for a product that needs the kernel of any
// operands, which has no tail split. `clusters`: as select_kernels takes it.
inline int select_candidates(const TunedShape *shapes, int n, const RowMajorGemm &product, int sms, Selection *out,
                             int capacity, bool tail_split = true, const ClusterSlots *clusters = nullptr) {
  if (capacity < 1) return 0;
  if (tail_split && product.M > 0 && product.N > 0 && product.K > 0) {
    const int exact = exact_blas_entry(shapes, n, product);
    const int plain = exact < 0 ? -1
                                : exact_plain_entry(shapes, n, product.M, product.N, product.K,
                                                    fast_operands(product));
    if (exact >= 0 && (plain < 0 || shapes[exact].percent_of_cublas >= shapes[plain].percent_of_cublas)) {
      const TileKernel kernel = tile_kernel_for(shapes[exact].tile, product);
      out[0] = Selection{SelectKind::exact, exact, kernel != TileKernel::fast, tile_kernel_splits(kernel), 0.0};
      return 1;
    }
  }
  const EdgeProduct edge = edge_product(product);
  const RowMajorGemm &g = edge.g;
  // A fast kernel whose int offsets cannot reach the leading dimensions is left out; its
  // tile's edge kernel, which addresses in 64 bits, stays a candidate.
  return select_kernels(shapes, n, g.M, g.N, g.K, fast_operands(product), sms, split_adds(edge.operands), out,
                        capacity, tail_split && !needs_any_kernel(product), clusters);
}

// The selection for `product`: the one select_candidates ranks first (entry -1 for none).
inline Selection select_for_product(const TunedShape *shapes, int n, const RowMajorGemm &product, int sms,
                                    bool tail_split = true, const ClusterSlots *clusters = nullptr) {
  Selection s{SelectKind::none, -1, false, 1, 0.0};
  select_candidates(shapes, n, product, sms, &s, 1, tail_split, clusters);
  return s;
}

}  // namespace sgemm_tune_kernels
