// How a shape's problem reaches the kernels of a tile: the row-major product sgemm_tuned
// makes of it (sgemm_blas_call.h), on operands stored dense, and which of the tile's
// kernels runs that product. A plain shape ("MxNxK") is the fast kernel's, on row-major
// operands; a BLAS shape ("MxNxK:NT", shape.h) runs on the kernel sgemm_tuned launches for
// it when the shape's tuning names this tile (sgemm_tune_kernels::tile_kernel_for and
// tile_kernel_splits, which the header's exact match uses too): the fast kernel where the
// product's operands are untransposed and the tile divides it, else the edge kernel with
// its tail split, or the kernel of any operands where B stays transposed, K split to fill
// the GPU. Where the header predicts instead, it may split K otherwise or pack the
// operands: the tuner times the tile's kernel, not every route the header could take.
#pragma once

#include "sgemm_blas_call.h"
#include "tuner/compile/kernel_source.h"
#include "tuner/space/shape.h"

namespace sgemm_tune {

// Leading dimensions of dense operands: the least CBLAS allows for the shape's layout and
// ops (row-major A M x K, B K x N, C M x N for a plain shape).
using sgemm_tune_kernels::DenseLeadingDims;
DenseLeadingDims dense_leading_dims(const Shape &shape);

// The row-major product of the shape's problem on A, B and C stored dense.
sgemm_tune_kernels::RowMajorGemm shape_product(const Shape &shape, float alpha, const float *A, const float *B,
                                               float beta, float *C);

// Which kernel of `tile` runs the shape, as the header above says (operands at aligned
// addresses, as cudaMalloc returns them).
KernelVariant serving_kernel(const SgemmTile &tile, const Shape &shape);

// The body (kEdgeBody*) of that kernel that runs the shape, where it is the edge kernel or
// the kernel of any operands (edge_launch, as sgemm_tuned picks it); kEdgeBodyPlain for a
// shape the fast kernel runs.
int serving_body(const SgemmTile &tile, const Shape &shape);

// Whether that kernel can run the shape: a plain shape's tile must divide it; a BLAS shape
// fits any tile whose edge kernel's offsets reach it.
bool tile_serves_shape(const SgemmTile &tile, const Shape &shape);

}  // namespace sgemm_tune
