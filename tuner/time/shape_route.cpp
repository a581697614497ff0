#include "tuner/time/shape_route.h"

namespace sgemm_tune {
namespace {

using sgemm_tune_kernels::RowMajorGemm;
using sgemm_tune_kernels::TileKernel;

int as_int(long long v) { return static_cast<int>(v); }

Layout layout_of(const Shape &s) { return s.blas && s.col_major ? Layout::ColMajor : Layout::RowMajor; }
Op op_of(bool trans) { return trans ? Op::Trans : Op::NoTrans; }

}  // namespace

DenseLeadingDims dense_leading_dims(const Shape &s) {
  return sgemm_tune_kernels::dense_leading_dims(layout_of(s), op_of(s.trans_a), op_of(s.trans_b), as_int(s.M),
                                                as_int(s.N), as_int(s.K));
}

RowMajorGemm shape_product(const Shape &s, float alpha, const float *A, const float *B, float beta, float *C) {
  const DenseLeadingDims ld = dense_leading_dims(s);
  return sgemm_tune_kernels::to_row_major(layout_of(s), op_of(s.trans_a), op_of(s.trans_b), as_int(s.M), as_int(s.N),
                                          as_int(s.K), alpha, A, ld.lda, B, ld.ldb, beta, C, ld.ldc);
}

KernelVariant serving_kernel(const SgemmTile &tile, const Shape &s) {
  if (!s.blas) return KernelVariant::exact;
  // Null pointers stand for aligned ones: only the leading dimensions decide alignment here.
  switch (sgemm_tune_kernels::tile_kernel_for(tile, shape_product(s, 1.0f, nullptr, nullptr, 0.0f, nullptr))) {
    case TileKernel::fast: return KernelVariant::exact;
    case TileKernel::any: return KernelVariant::any;
    case TileKernel::edges: break;
  }
  return KernelVariant::edges;
}

int serving_body(const SgemmTile &tile, const Shape &s) {
  if (serving_kernel(tile, s) == KernelVariant::exact) return sgemm_tune_kernels::kEdgeBodyPlain;
  return sgemm_tune_kernels::edge_launch(tile, shape_product(s, 1.0f, nullptr, nullptr, 0.0f, nullptr)).body;
}

bool tile_serves_shape(const SgemmTile &tile, const Shape &s) {
  if (!s.blas) return sgemm_tune_kernels::shape_fits_tile(tile, s.M, s.N, s.K);
  if (serving_kernel(tile, s) == KernelVariant::exact) return true;
  const RowMajorGemm g = sgemm_tune_kernels::edge_product(shape_product(s, 1.0f, nullptr, nullptr, 0.0f, nullptr)).g;
  return sgemm_tune_kernels::shape_fits_tile_edges(tile, g.M, g.N, g.K);
}

}  // namespace sgemm_tune
