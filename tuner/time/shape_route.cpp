#include "tuner/time/shape_route.h"

namespace sgemm_tune {
namespace {

using sgemm_tune_kernels::RowMajorGemm;

int as_int(long long v) { return static_cast<int>(v); }

}  // namespace

DenseLeadingDims dense_leading_dims(const Shape &s) {
  const int M = as_int(s.M), N = as_int(s.N), K = as_int(s.K);
  if (!s.blas || !s.col_major) return DenseLeadingDims{s.trans_a ? M : K, s.trans_b ? K : N, N};
  // Column-major: a leading dimension is the length of a column.
  return DenseLeadingDims{s.trans_a ? K : M, s.trans_b ? N : K, M};
}

RowMajorGemm shape_product(const Shape &s, float alpha, const float *A, const float *B, float beta, float *C) {
  const DenseLeadingDims ld = dense_leading_dims(s);
  const auto op = [](bool trans) { return trans ? Op::Trans : Op::NoTrans; };
  return sgemm_tune_kernels::to_row_major(s.col_major ? Layout::ColMajor : Layout::RowMajor, op(s.trans_a),
                                          op(s.trans_b), as_int(s.M), as_int(s.N), as_int(s.K), alpha, A, ld.lda, B,
                                          ld.ldb, beta, C, ld.ldc);
}

KernelVariant serving_kernel(const SgemmTile &tile, const Shape &s) {
  if (!s.blas) return KernelVariant::exact;
  // Null pointers stand for aligned ones: only the leading dimensions decide alignment here.
  const RowMajorGemm g = shape_product(s, 1.0f, nullptr, nullptr, 0.0f, nullptr);
  if (sgemm_tune_kernels::fast_kernel_layout(g) && sgemm_tune_kernels::shape_fits_tile(tile, g.M, g.N, g.K))
    return KernelVariant::exact;
  return sgemm_tune_kernels::needs_any_kernel(g) ? KernelVariant::any : KernelVariant::edges;
}

bool tile_serves_shape(const SgemmTile &tile, const Shape &s) {
  if (!s.blas) return sgemm_tune_kernels::shape_fits_tile(tile, s.M, s.N, s.K);
  if (serving_kernel(tile, s) == KernelVariant::exact) return true;
  const RowMajorGemm g = sgemm_tune_kernels::edge_product(shape_product(s, 1.0f, nullptr, nullptr, 0.0f, nullptr)).g;
  return sgemm_tune_kernels::shape_fits_tile_edges(tile, g.M, g.N, g.K);
}

int fill_splits(const SgemmTile &t, int M, int N, int K, int slots) {
  // With fewer tiles than slots every tile is in the tail split's last wave, split as many
  // ways as fill the GPU (within K's slices and kMaxSplitK); with more, none is split.
  const sgemm_tune_kernels::TailSplit tail = sgemm_tune_kernels::tile_edges_tail_split(t, M, N, K, slots);
  return tail.whole == 0 ? tail.parts : 1;
}

}  // namespace sgemm_tune
