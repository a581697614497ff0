#include <gtest/gtest.h>

#include "tuner/common/errors.h"
#include "tuner/space/shape.h"
#include "tuner/time/shape_route.h"

namespace sgemm_tune {
namespace {

TEST(Shape, ParsesMxNxK) {
  const Shape s = parse_shape("4096x2048X1024");
  EXPECT_EQ(s.M, 4096);
  EXPECT_EQ(s.N, 2048);
  EXPECT_EQ(s.K, 1024);
  EXPECT_EQ(s.to_string(), "4096x2048x1024");
  EXPECT_DOUBLE_EQ(s.flops(), 2.0 * 4096 * 2048 * 1024);
}

void expect_rejected(const std::string &text, const std::string &fragment) {
  try {
    parse_shape(text);
    FAIL() << "accepted '" << text << "'";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Shape, RejectsBadShapesWithTheCause) {
  expect_rejected("0x4096x4096", "positive");
  expect_rejected("-1x4096x4096", "positive");
  expect_rejected("4096x4096", "MxNxK");
  expect_rejected("4096x4096x4096x1", "MxNxK");
  expect_rejected("ax4096x4096", "not a whole number");
  expect_rejected("4096x x4096", "not a whole number");
  expect_rejected("", "MxNxK");
  expect_rejected("4096xx4096", "MxNxK");
  expect_rejected("99999999999x1x1", "exceeds");
}

TEST(Shape, ParsesTheOpsAndLayoutOfABlasProduct) {
  const Shape nt = parse_shape("1000x999x998:NT");
  EXPECT_EQ(nt.M, 1000);
  EXPECT_EQ(nt.N, 999);
  EXPECT_EQ(nt.K, 998);
  EXPECT_TRUE(nt.blas);
  EXPECT_FALSE(nt.col_major);
  EXPECT_FALSE(nt.trans_a);
  EXPECT_TRUE(nt.trans_b);
  EXPECT_EQ(nt.to_string(), "1000x999x998:NT");
  EXPECT_EQ(nt.operands_text(), "NT");

  const Shape tn_col = parse_shape("64x128x256:TN:col");
  EXPECT_TRUE(tn_col.blas && tn_col.col_major && tn_col.trans_a && !tn_col.trans_b);
  EXPECT_EQ(tn_col.to_string(), "64x128x256:TN:col");
  // ":row" is the default and is not written back.
  EXPECT_EQ(parse_shape("64x128x256:TT:row").to_string(), "64x128x256:TT");
  // A BLAS product is another shape than the plain one of the same sizes, and than one of
  // other ops or layout: each is tuned and recorded on its own.
  EXPECT_NE(parse_shape("64x64x64:NN"), parse_shape("64x64x64"));
  EXPECT_NE(parse_shape("64x64x64:NN"), parse_shape("64x64x64:NN:col"));
  EXPECT_NE(parse_shape("64x64x64:NT"), parse_shape("64x64x64:TN"));
  EXPECT_EQ(parse_shape("64x64x64:NT"), parse_shape("64x64x64:NT:row"));
  EXPECT_EQ(parse_shape("64x64x64").operands_text(), "");
  // The text the database keeps comes back as the same shape.
  EXPECT_EQ(shape_with_operands(64, 128, 256, "TN:col"), tn_col);
  EXPECT_EQ(shape_with_operands(64, 128, 256, ""), parse_shape("64x128x256"));
  EXPECT_THROW(shape_with_operands(64, 128, 256, "XY"), UserError);
}

TEST(Shape, RejectsOpsThatAreNotABlasCallsWithTheCause) {
  expect_rejected("1000x1000x1000:", "not the ops of a BLAS call");
  expect_rejected("1000x1000x1000:N", "not the ops of a BLAS call");
  expect_rejected("1000x1000x1000:NTN", "not the ops of a BLAS call");
  expect_rejected("1000x1000x1000:nt", "not the ops of a BLAS call");
  expect_rejected("1000x1000x1000:NC", "not the ops of a BLAS call");
  expect_rejected("1000x1000x1000:NT:colmajor", "not the ops of a BLAS call");
  expect_rejected("1000x1000x1000:NT:col:", "not the ops of a BLAS call");
  expect_rejected("1000x1000x1000:col", "not the ops of a BLAS call");
  expect_rejected("1000x1000:NT", "MxNxK");
}

SgemmTile tile_128x64x16() { return SgemmTile{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0}; }

TEST(ShapeRoute, DenseLeadingDimensionsAreTheLeastCblasAllows) {
  const auto ld = [](const char *text) {
    const DenseLeadingDims d = dense_leading_dims(parse_shape(text));
    return std::vector<int>{d.lda, d.ldb, d.ldc};
  };
  // M = 10, N = 20, K = 30.
  EXPECT_EQ(ld("10x20x30"), (std::vector<int>{30, 20, 20}));
  EXPECT_EQ(ld("10x20x30:NN"), (std::vector<int>{30, 20, 20}));
  EXPECT_EQ(ld("10x20x30:TT"), (std::vector<int>{10, 30, 20}));
  EXPECT_EQ(ld("10x20x30:NN:col"), (std::vector<int>{10, 30, 10}));
  EXPECT_EQ(ld("10x20x30:TT:col"), (std::vector<int>{30, 20, 10}));
}

TEST(ShapeRoute, APlainShapeIsTheFastKernelsWhereTheTileDividesIt) {
  const SgemmTile t = tile_128x64x16();
  EXPECT_EQ(serving_kernel(t, parse_shape("1024x1024x1024")), KernelVariant::exact);
  EXPECT_TRUE(tile_serves_shape(t, parse_shape("1024x1024x1024")));
  EXPECT_FALSE(tile_serves_shape(t, parse_shape("1000x1024x1024")));
}

TEST(ShapeRoute, ABlasShapeRunsOnTheKernelTheHeaderWouldLaunch) {
  const SgemmTile t = tile_128x64x16();
  // Untransposed and divided by the tile: the fast kernel, in either layout (a column-major
  // product is the row-major one of its transposes: M and N swap).
  EXPECT_EQ(serving_kernel(t, parse_shape("1024x512x256:NN")), KernelVariant::exact);
  EXPECT_EQ(serving_kernel(t, parse_shape("512x1024x256:NN:col")), KernelVariant::exact);
  // 1024 x 96 row-major is 96 x 1024 row-major once column-major: 96 rows no 128-row tile divides.
  EXPECT_EQ(serving_kernel(t, parse_shape("1024x96x256:NN:col")), KernelVariant::edges);
  // Not divided: the edge kernel.
  EXPECT_EQ(serving_kernel(t, parse_shape("1000x1000x1000:NN")), KernelVariant::edges);
  // A transposed A, and both transposed (run as C^T = B A): the edge kernel.
  EXPECT_EQ(serving_kernel(t, parse_shape("1024x1024x1024:TN")), KernelVariant::edges);
  EXPECT_EQ(serving_kernel(t, parse_shape("1024x1024x1024:TT")), KernelVariant::edges);
  // A transposed B stays one: the kernel of any operands. Column-major swaps the operands.
  EXPECT_EQ(serving_kernel(t, parse_shape("1024x1024x1024:NT")), KernelVariant::any);
  EXPECT_EQ(serving_kernel(t, parse_shape("1024x1024x1024:TN:col")), KernelVariant::any);
  EXPECT_EQ(serving_kernel(t, parse_shape("1024x1024x1024:NT:col")), KernelVariant::edges);
  // Rows that are not 16-byte aligned (K = 1001) keep the fast kernel away even where the tile
  // would divide the other sizes.
  EXPECT_EQ(serving_kernel(t, parse_shape("1024x1024x1001:NN")), KernelVariant::edges);
  for (const char *s : {"1000x1000x1000:NN", "1x1x1:TT", "7x5000x3:NT:col"})
    EXPECT_TRUE(tile_serves_shape(t, parse_shape(s))) << s;
}

TEST(ShapeRoute, TheKernelOfAnyOperandsSplitsKToFillTheGpu) {
  const SgemmTile t = tile_128x64x16();
  // 2 x 4 = 8 tiles on 132 slots: 16 ways, within K's 64 slices of 16.
  EXPECT_EQ(sgemm_tune_kernels::tile_edges_fill_splits(t, 256, 256, 1024, 132), 16);
  // No more ways than K has slices.
  EXPECT_EQ(sgemm_tune_kernels::tile_edges_fill_splits(t, 256, 256, 64, 132), 4);
  // No more than kMaxSplitK.
  EXPECT_EQ(sgemm_tune_kernels::tile_edges_fill_splits(t, 128, 64, 100000, 1000), sgemm_tune_kernels::kMaxSplitK);
  // As many tiles as slots, or more: not split.
  EXPECT_EQ(sgemm_tune_kernels::tile_edges_fill_splits(t, 4096, 4096, 4096, 132), 1);
  // Each kernel's split as the tuner launches it and an exact match runs it.
  EXPECT_EQ(sgemm_tune_kernels::tile_kernel_splits(sgemm_tune_kernels::TileKernel::fast), 1);
  EXPECT_EQ(sgemm_tune_kernels::tile_kernel_splits(sgemm_tune_kernels::TileKernel::edges),
            sgemm_tune_kernels::kEdgeTailSplit);
  EXPECT_EQ(sgemm_tune_kernels::tile_kernel_splits(sgemm_tune_kernels::TileKernel::any),
            sgemm_tune_kernels::kEdgeFillSplit);
}

}  // namespace
}  // namespace sgemm_tune
