// The BLAS call of generated headers (kernel_templates/sgemm_blas_call.h), on the CPU: the
// argument checks against CBLAS's table of leading dimensions, the reduction of every
// layout and op pair to one row-major product (computed both ways on the CPU, reading the
// operands as the edge kernels do), which calls the fast kernel may read, and how the edge
// kernels are told the rest (operand bits, the (T, T) rewrite, packing).
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sgemm_blas_call.h"

namespace sgemm_tune_kernels {
namespace {

using sgemm_tune::Layout;
using sgemm_tune::Op;

constexpr Layout kLayouts[] = {Layout::RowMajor, Layout::ColMajor};
constexpr Op kOps[] = {Op::NoTrans, Op::Trans};

std::string describe(Layout l, Op a, Op b) {
  return std::string(l == Layout::RowMajor ? "RowMajor" : "ColMajor") + (a == Op::Trans ? " T" : " N") +
         (b == Op::Trans ? "T" : "N");
}

// The matrix a CBLAS operand is stored as: op(X) is rows x cols, X itself the transpose
// when op is Trans; its leading dimension spans a row (row-major) or a column.
struct Stored {
  int rows, cols;
  int min_ld(Layout l) const { return std::max(1, l == Layout::RowMajor ? cols : rows); }
  int lines(Layout l) const { return l == Layout::RowMajor ? rows : cols; }
};
Stored stored(Op op, int op_rows, int op_cols) { return op == Op::Trans ? Stored{op_cols, op_rows} : Stored{op_rows, op_cols}; }

// Element (i, j) of a stored matrix in `layout`.
float at(const float *x, Layout l, int ld, int i, int j) { return l == Layout::RowMajor ? x[i * ld + j] : x[i + j * ld]; }

struct Call {
  Layout layout;
  Op op_a, op_b;
  int M, N, K, lda, ldb, ldc;
  const float *A, *B;
  float *C;
  RowMajorGemm row_major() const {
    return to_row_major(layout, op_a, op_b, M, N, K, 1.0f, A, lda, B, ldb, 0.0f, C, ldc);
  }
};

// A call with the least leading dimensions CBLAS allows.
Call tight_call(Layout l, Op a, Op b, int M, int N, int K, const float *A, const float *B, float *C) {
  return Call{l, a, b, M, N, K, stored(a, M, K).min_ld(l), stored(b, K, N).min_ld(l), Stored{M, N}.min_ld(l), A, B, C};
}

float g_buffer[16];

TEST(BlasCall, LeadingDimensionsBelowCblasMinimumAreInvalid) {
  const int M = 3, N = 5, K = 7;
  for (Layout l : kLayouts)
    for (Op a : kOps)
      for (Op b : kOps) {
        const Call tight = tight_call(l, a, b, M, N, K, g_buffer, g_buffer, g_buffer);
        EXPECT_EQ(check_gemm(tight.row_major()), GemmCheck::run) << describe(l, a, b);
        for (int which = 0; which < 3; ++which) {
          Call bad = tight;
          int &ld = which == 0 ? bad.lda : which == 1 ? bad.ldb : bad.ldc;
          ld -= 1;
          EXPECT_EQ(check_gemm(bad.row_major()), GemmCheck::invalid)
              << describe(l, a, b) << ", ld of " << "ABC"[which] << " = " << ld;
          ld += 2;  // padding is fine
          EXPECT_EQ(check_gemm(bad.row_major()), GemmCheck::run) << describe(l, a, b) << " padded";
        }
        // An empty product still needs leading dimensions of at least 1, as in BLAS.
        Call empty = tight_call(l, a, b, 0, 0, 0, nullptr, nullptr, nullptr);
        EXPECT_EQ(empty.lda, 1);
        EXPECT_EQ(check_gemm(empty.row_major()), GemmCheck::nothing_to_do) << describe(l, a, b);
        empty.ldc = 0;
        EXPECT_EQ(check_gemm(empty.row_major()), GemmCheck::invalid) << describe(l, a, b);
      }
}

TEST(BlasCall, SizesAndPointers) {
  float *c = g_buffer;
  const float *p = g_buffer;
  const auto check = [](const Call &call) { return check_gemm(call.row_major()); };
  for (Layout l : kLayouts) {
    EXPECT_EQ(check(tight_call(l, Op::NoTrans, Op::NoTrans, -1, 4, 4, p, p, c)), GemmCheck::invalid);
    EXPECT_EQ(check(tight_call(l, Op::NoTrans, Op::NoTrans, 4, -1, 4, p, p, c)), GemmCheck::invalid);
    EXPECT_EQ(check(tight_call(l, Op::NoTrans, Op::NoTrans, 4, 4, -1, p, p, c)), GemmCheck::invalid);
    EXPECT_EQ(check(tight_call(l, Op::NoTrans, Op::Trans, 4, 4, 4, nullptr, p, c)), GemmCheck::invalid);
    EXPECT_EQ(check(tight_call(l, Op::Trans, Op::NoTrans, 4, 4, 4, p, nullptr, c)), GemmCheck::invalid);
    EXPECT_EQ(check(tight_call(l, Op::Trans, Op::Trans, 4, 4, 4, p, p, nullptr)), GemmCheck::invalid);
    // K = 0 reads neither operand (C = beta C); M or N = 0 touches nothing at all.
    EXPECT_EQ(check(tight_call(l, Op::NoTrans, Op::NoTrans, 4, 4, 0, nullptr, nullptr, c)), GemmCheck::run);
    EXPECT_EQ(check(tight_call(l, Op::NoTrans, Op::NoTrans, 4, 4, 0, p, p, nullptr)), GemmCheck::invalid);
    EXPECT_EQ(check(tight_call(l, Op::NoTrans, Op::NoTrans, 0, 4, 4, nullptr, nullptr, nullptr)),
              GemmCheck::nothing_to_do);
    EXPECT_EQ(check(tight_call(l, Op::Trans, Op::Trans, 4, 0, 4, nullptr, nullptr, nullptr)),
              GemmCheck::nothing_to_do);
  }
  // The shorthand's dense leading dimensions pass even when a size is 0.
  EXPECT_EQ(check_gemm(dense_row_major(4, 4, 0, 1.0f, nullptr, nullptr, 0.0f, c)), GemmCheck::run);
  EXPECT_EQ(check_gemm(dense_row_major(0, 0, 0, 1.0f, nullptr, nullptr, 0.0f, nullptr)), GemmCheck::nothing_to_do);
  // With alpha = 0 the product is C = beta C: A and B are not read, so they may be null.
  EXPECT_EQ(check_gemm(dense_row_major(4, 4, 4, 0.0f, nullptr, nullptr, 0.5f, c)), GemmCheck::run);
  EXPECT_EQ(check_gemm(dense_row_major(4, 4, 4, 1.0f, nullptr, nullptr, 0.5f, c)), GemmCheck::invalid);
  EXPECT_EQ(check_gemm(dense_row_major(-1, 4, 4, 1.0f, p, p, 0.0f, c)), GemmCheck::invalid);
}

// C = op(A) op(B) of a CBLAS call, straight from the definition, against the row-major
// product it becomes, read as the edge kernel reads it (a transposed A stored K x M, a
// transposed B stored N x K, rows lda and ldb apart): for
// every layout and op pair, padded leading dimensions, shapes of three different sizes.
TEST(BlasCall, EveryLayoutAndOpPairReducesToTheSameRowMajorProduct) {
  const int M = 3, N = 5, K = 4, pad = 2;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (Layout l : kLayouts)
    for (Op a : kOps)
      for (Op b : kOps) {
        const Stored sa = stored(a, M, K), sb = stored(b, K, N), sc{M, N};
        const int lda = sa.min_ld(l) + pad, ldb = sb.min_ld(l) + pad, ldc = sc.min_ld(l) + pad;
        std::vector<float> A(sa.lines(l) * lda), B(sb.lines(l) * ldb), C(sc.lines(l) * ldc, -99.0f);
        for (float &x : A) x = uniform(rng);
        for (float &x : B) x = uniform(rng);
        std::vector<float> expected = C;
        for (int i = 0; i < M; ++i)
          for (int j = 0; j < N; ++j) {
            double sum = 0;
            for (int k = 0; k < K; ++k) {
              const float x = a == Op::Trans ? at(A.data(), l, lda, k, i) : at(A.data(), l, lda, i, k);
              const float y = b == Op::Trans ? at(B.data(), l, ldb, j, k) : at(B.data(), l, ldb, k, j);
              sum += double(x) * y;
            }
            (l == Layout::RowMajor ? expected[i * ldc + j] : expected[i + j * ldc]) = static_cast<float>(sum);
          }

        const RowMajorGemm g = to_row_major(l, a, b, M, N, K, 1.0f, A.data(), lda, B.data(), ldb, 0.0f, C.data(), ldc);
        ASSERT_EQ(check_gemm(g), GemmCheck::run) << describe(l, a, b);
        const auto opA = [&](int i, int k) { return g.trans_a ? g.A[k * g.lda + i] : g.A[i * g.lda + k]; };
        const auto opB = [&](int k, int j) { return g.trans_b ? g.B[j * g.ldb + k] : g.B[k * g.ldb + j]; };
        for (int i = 0; i < g.M; ++i)
          for (int j = 0; j < g.N; ++j) {
            double sum = 0;
            for (int k = 0; k < g.K; ++k) sum += double(opA(i, k)) * opB(k, j);
            g.C[i * g.ldc + j] = static_cast<float>(sum);
          }
        EXPECT_EQ(C, expected) << describe(l, a, b);
      }
}

TEST(BlasCall, OnlyPlainAlignedOperandsGoToTheFastKernel) {
  alignas(16) static float buffer[64];
  const float *A = buffer, *B = buffer + 16;
  float *C = buffer + 32;
  const auto call = [&](Layout l, Op a, Op b, int lda, int ldb, int ldc, int offset) {
    return to_row_major(l, a, b, 8, 8, 8, 1.0f, A + offset, lda, B, ldb, 0.0f, C, ldc);
  };
  for (Layout l : kLayouts) {
    // Column-major without transposes is the row-major product of B and A, neither transposed.
    EXPECT_TRUE(fast_kernel_layout(call(l, Op::NoTrans, Op::NoTrans, 8, 8, 8, 0)));
    EXPECT_TRUE(fast_kernel_layout(call(l, Op::NoTrans, Op::NoTrans, 12, 16, 20, 0)));
    EXPECT_FALSE(fast_kernel_layout(call(l, Op::Trans, Op::NoTrans, 8, 8, 8, 0)));
    EXPECT_FALSE(fast_kernel_layout(call(l, Op::NoTrans, Op::Trans, 8, 8, 8, 0)));
    EXPECT_FALSE(fast_kernel_layout(call(l, Op::NoTrans, Op::NoTrans, 9, 8, 8, 0)));
    EXPECT_FALSE(fast_kernel_layout(call(l, Op::NoTrans, Op::NoTrans, 8, 10, 8, 0)));
    EXPECT_FALSE(fast_kernel_layout(call(l, Op::NoTrans, Op::NoTrans, 8, 8, 11, 0)));
    EXPECT_FALSE(fast_kernel_layout(call(l, Op::NoTrans, Op::NoTrans, 8, 8, 8, 1)));
    EXPECT_FALSE(fast_kernel_layout(call(l, Op::NoTrans, Op::NoTrans, 8, 8, 8, 3)));
  }
  const RowMajorGemm col = call(Layout::ColMajor, Op::Trans, Op::NoTrans, 8, 12, 16, 0);
  EXPECT_EQ(col.A, B);
  EXPECT_EQ(col.lda, 12);
  EXPECT_FALSE(col.trans_a);
  EXPECT_EQ(col.B, A);
  EXPECT_TRUE(col.trans_b);
}

// The key a route is remembered under (sgemm_tuned_runtime.cuh's RouteCache) changes with
// everything the choice of kernel reads: each size, each leading dimension, each
// orientation, each operand's alignment. Pointers that keep every operand's alignment, and
// alpha and beta, which the choice never reads, leave it as it is: the same route serves.
TEST(BlasCall, RouteKeyChangesWithEverythingTheChoiceReads) {
  alignas(16) static float buffer[256];
  const RowMajorGemm base{40, 48, 56, 1.0f, buffer, 64, false, buffer + 64, 52, false, 0.0f, buffer + 128, 60};
  const RouteKey key = route_key(base);
  const auto changed = [&](auto edit) {
    RowMajorGemm g = base;
    edit(g);
    return !(route_key(g) == key);
  };
  EXPECT_TRUE(changed([](RowMajorGemm &g) { g.M += 1; }));
  EXPECT_TRUE(changed([](RowMajorGemm &g) { g.N += 1; }));
  EXPECT_TRUE(changed([](RowMajorGemm &g) { g.K += 1; }));
  EXPECT_TRUE(changed([](RowMajorGemm &g) { g.lda += 4; }));
  EXPECT_TRUE(changed([](RowMajorGemm &g) { g.ldb += 4; }));
  EXPECT_TRUE(changed([](RowMajorGemm &g) { g.ldc += 4; }));
  EXPECT_TRUE(changed([](RowMajorGemm &g) { g.trans_a = true; }));
  EXPECT_TRUE(changed([](RowMajorGemm &g) { g.trans_b = true; }));
  EXPECT_TRUE(changed([](RowMajorGemm &g) { g.trans_c = true; }));
  EXPECT_TRUE(changed([](RowMajorGemm &g) { g.A += 1; }));
  EXPECT_TRUE(changed([](RowMajorGemm &g) { g.B += 2; }));
  EXPECT_TRUE(changed([](RowMajorGemm &g) { g.C += 3; }));
  EXPECT_FALSE(changed([](RowMajorGemm &g) {
    g.A += 4;
    g.B += 8;
    g.C += 12;
  }));
  EXPECT_FALSE(changed([](RowMajorGemm &g) {
    g.alpha = 0.5f;
    g.beta = 2.0f;
  }));
}

// What the choice of kernel computes from a product, everything but where the operands lie:
// the product as the edge kernel runs it, its operand bits, whether the fast kernel reads it,
// how it packs and in which form. Equal for two products, they take the same route.
std::string decision_inputs(const RowMajorGemm &product) {
  const EdgeProduct e = edge_product(product);
  const PackPlan p = pack_plan(e.g);
  const RowMajorGemm form = pack_form(product, SgemmTile{64, 128, 32, 32, 128, 4, 8, 4, 2, 0, 1});
  const PackedFloats f = packed_floats(form, pack_plan(form));
  char text[256];
  std::snprintf(text, sizeof text, "%d %d %d %d %d %d %d%d%d ops=%d fast=%d plain=%d wide=%d pack=%d%d %d %d %lld %lld "
                "form=%dx%dx%d %d%d floats=%lld,%lld",
                e.g.M, e.g.N, e.g.K, e.g.lda, e.g.ldb, e.g.ldc, e.g.trans_a, e.g.trans_b, e.g.trans_c, e.operands,
                fast_kernel_layout(product), plain_edge_operands(e.g), wide_edge_operands(e.g), p.a, p.b, p.a_ld,
                p.b_ld, p.b_offset, p.bytes, form.M, form.N, form.K, form.trans_a, form.trans_b, f.a, f.b);
  return text;
}

// Over random products in every layout and op pair, with operands at offsets of 0 to 7
// floats: whenever two share a route key, everything the choice computes from them agrees.
TEST(BlasCall, ProductsWithEqualRouteKeysAreChosenAlike) {
  alignas(16) static float buffer[64];
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> pick(0, 2), offset(0, 7), coin(0, 1);
  // Few sizes and paddings, so that keys repeat and their pairs are compared; rows of 4 and
  // 8 floats are 16-byte aligned at the right offsets, rows of 5 never.
  const int sizes[] = {4, 8, 5};
  std::vector<std::pair<RouteKey, std::string>> seen;
  int equal_keys = 0;
  for (int i = 0; i < 4000; ++i) {
    const Layout l = kLayouts[coin(rng)];
    const Op a = kOps[coin(rng)], b = kOps[coin(rng)];
    const int M = sizes[pick(rng)], N = sizes[pick(rng)], K = sizes[pick(rng)];
    const int lda = stored(a, M, K).min_ld(l) + 4 * coin(rng), ldb = stored(b, K, N).min_ld(l) + 4 * coin(rng),
              ldc = Stored{M, N}.min_ld(l) + 4 * coin(rng);
    RowMajorGemm g = to_row_major(l, a, b, M, N, K, 0.5f * coin(rng), buffer + offset(rng), lda,
                                  buffer + 16 + offset(rng), ldb, 0.25f * coin(rng), buffer + 32 + offset(rng), ldc);
    g.trans_c = coin(rng) == 1;  // as the transposed products the runtime forms have it
    const RouteKey key = route_key(g);
    const std::string inputs = decision_inputs(g);
    for (const auto &[other_key, other_inputs] : seen) {
      if (!(other_key == key)) continue;  // a finer key than needed costs only a second choice
      ++equal_keys;
      EXPECT_EQ(inputs, other_inputs);
    }
    seen.emplace_back(key, inputs);
  }
  EXPECT_GT(equal_keys, 500) << "too few pairs of equal keys to say anything";
}

// The edge kernel's operand bits: a transpose per operand as the row-major product has it,
// and 4-byte accesses as soon as one row of A, B or C is off 16-byte alignment.
TEST(BlasCall, EdgeOperandBitsFollowTheRowMajorProduct) {
  alignas(16) static float buffer[64];
  const float *A = buffer, *B = buffer + 16;
  float *C = buffer + 32;
  const auto bits = [&](Layout l, Op a, Op b, int lda, int ldb, int ldc, int a_offset, int c_offset) {
    return edge_operands(to_row_major(l, a, b, 8, 8, 8, 1.0f, A + a_offset, lda, B, ldb, 0.0f, C + c_offset, ldc));
  };
  EXPECT_EQ(bits(Layout::RowMajor, Op::NoTrans, Op::NoTrans, 8, 8, 8, 0, 0), 0);
  EXPECT_EQ(bits(Layout::RowMajor, Op::Trans, Op::NoTrans, 8, 8, 8, 0, 0), kOperandTransA);
  EXPECT_EQ(bits(Layout::RowMajor, Op::NoTrans, Op::Trans, 8, 8, 8, 0, 0), kOperandTransB);
  EXPECT_EQ(bits(Layout::RowMajor, Op::Trans, Op::Trans, 8, 8, 8, 0, 0), kOperandTransA | kOperandTransB);
  // Column-major swaps the operands, and each keeps its op.
  EXPECT_EQ(bits(Layout::ColMajor, Op::Trans, Op::NoTrans, 8, 8, 8, 0, 0), kOperandTransB);
  EXPECT_EQ(bits(Layout::ColMajor, Op::NoTrans, Op::Trans, 8, 8, 8, 0, 0), kOperandTransA);
  // An unaligned A or B takes the narrow bodies (kOperandNarrowAB), an unaligned C 4-byte
  // stores (kOperandScalar): each width from its own operands.
  EXPECT_EQ(bits(Layout::RowMajor, Op::NoTrans, Op::NoTrans, 9, 8, 8, 0, 0), kOperandNarrowAB);
  EXPECT_EQ(bits(Layout::RowMajor, Op::NoTrans, Op::NoTrans, 8, 8, 10, 0, 0), kOperandScalar);
  EXPECT_EQ(bits(Layout::RowMajor, Op::NoTrans, Op::NoTrans, 8, 8, 8, 1, 0), kOperandNarrowAB);
  EXPECT_EQ(bits(Layout::RowMajor, Op::NoTrans, Op::NoTrans, 8, 8, 8, 0, 2), kOperandScalar);
  EXPECT_EQ(bits(Layout::RowMajor, Op::Trans, Op::NoTrans, 8, 12, 8, 0, 3), kOperandTransA | kOperandScalar);
  EXPECT_EQ(bits(Layout::RowMajor, Op::Trans, Op::NoTrans, 8, 13, 8, 0, 0), kOperandTransA | kOperandNarrowAB);
  EXPECT_EQ(bits(Layout::RowMajor, Op::NoTrans, Op::NoTrans, 9, 8, 10, 0, 0), kOperandScalar | kOperandNarrowAB);
}

// The fast kernel's int offsets bound the leading dimensions it takes: a row index within a
// tile times its leading dimension stays below 2^31.
TEST(BlasCall, LeadingDimensionsTooLongForTheFastKernelAreRefusedByItsRule) {
  const SgemmTile t{128, 128, 32, 64, 64, 2, 8, 8, 2, 0, 0};
  EXPECT_TRUE(leading_dimensions_fit_tile(t, 4096, 4096, 4096));
  EXPECT_TRUE(leading_dimensions_fit_tile(t, 2147483647 / 128, 2147483647 / 32, 2147483647 / 64));
  EXPECT_FALSE(leading_dimensions_fit_tile(t, 2147483647 / 128 + 1, 4096, 4096));
  EXPECT_FALSE(leading_dimensions_fit_tile(t, 4096, 70000000, 4096));  // 31 rows of B past 2^31
  EXPECT_FALSE(leading_dimensions_fit_tile(t, 4096, 4096, 2147483647 / 64 + 1));
}

// Both operands transposed: the edge kernel runs C^T = B A, untransposed, into C transposed.
TEST(BlasCall, ATransposedProductOfTransposesRunsAsThePlainOne) {
  alignas(16) static float buffer[64];
  const float *A = buffer, *B = buffer + 16;
  float *C = buffer + 32;
  const RowMajorGemm g = to_row_major(Layout::RowMajor, Op::Trans, Op::Trans, 3, 5, 7, 2.0f, A, 4, B, 8, 0.5f, C, 12);
  const EdgeProduct e = edge_product(g);
  EXPECT_EQ(e.operands, kOperandTransC);
  EXPECT_EQ(e.g.M, 5);
  EXPECT_EQ(e.g.N, 3);
  EXPECT_EQ(e.g.K, 7);
  EXPECT_EQ(e.g.A, B);
  EXPECT_EQ(e.g.lda, 8);
  EXPECT_EQ(e.g.B, A);
  EXPECT_EQ(e.g.ldb, 4);
  EXPECT_FALSE(e.g.trans_a || e.g.trans_b);
  EXPECT_EQ(e.g.C, C);
  EXPECT_EQ(e.g.ldc, 12);
  EXPECT_EQ(e.g.alpha, 2.0f);
  EXPECT_EQ(e.g.beta, 0.5f);
  // Unaligned rows keep their 4-byte accesses; one transpose alone is left as it is.
  EXPECT_EQ(edge_product(to_row_major(Layout::RowMajor, Op::Trans, Op::Trans, 3, 5, 7, 1.0f, A, 5, B, 8, 0.0f, C, 12))
                .operands,
            kOperandTransC | kOperandNarrowAB);
  const EdgeProduct one = edge_product(to_row_major(Layout::RowMajor, Op::NoTrans, Op::Trans, 3, 5, 7, 1.0f, A, 8, B, 8, 0.0f, C, 8));
  EXPECT_EQ(one.operands, kOperandTransB);
  EXPECT_EQ(one.g.M, 3);
}

// edge_launch, which every edge launch starts from (the run-time's and the tuner's), picks
// the body of the product as edge_product turns it, not as the caller wrote it.
TEST(BlasCall, EdgeLaunchPicksTheBodyOfTheTurnedProduct) {
  alignas(16) static float buffer[64];
  const float *A = buffer, *B = buffer + 16;
  float *C = buffer + 32;
  const SgemmTile t{64, 128, 32, 32, 64, 2, 8, 4, 2, 0, 0};
  const auto launch = [&](Op a, Op b, int lda, int ldb, int a_offset) {
    return edge_launch(t, to_row_major(Layout::RowMajor, a, b, 8, 8, 8, 1.0f, A + a_offset, lda, B, ldb, 0.0f, C, 8));
  };
  EXPECT_EQ(launch(Op::NoTrans, Op::NoTrans, 8, 8, 0).body, kEdgeBodyPlain);
  EXPECT_EQ(launch(Op::Trans, Op::NoTrans, 8, 8, 0).body, kEdgeBodyTransposedA);
  EXPECT_EQ(launch(Op::NoTrans, Op::NoTrans, 9, 8, 0).body, kEdgeBodyNarrow);
  EXPECT_EQ(launch(Op::Trans, Op::NoTrans, 8, 8, 1).body, kEdgeBodyTransposedANarrow);
  // B transposed: the kernel of any operands, whose bodies are numbered alike.
  const EdgeLaunch any = launch(Op::NoTrans, Op::Trans, 8, 8, 0);
  EXPECT_EQ(any.operands, kOperandTransB);
  EXPECT_EQ(any.body, kEdgeBodyPlain);
  // Both transposed: C^T = B A runs the plain body, though A as written is transposed; its
  // product and bits are edge_product's.
  const EdgeLaunch both = launch(Op::Trans, Op::Trans, 8, 8, 0);
  EXPECT_EQ(both.body, kEdgeBodyPlain);
  EXPECT_EQ(both.operands, kOperandTransC);
  EXPECT_EQ(both.g.A, B);
  EXPECT_EQ(both.g.B, A + 0);
  EXPECT_EQ(launch(Op::Trans, Op::Trans, 8, 8, 1).body, kEdgeBodyNarrow);
  // The body is picked on the turned product's leading dimensions: A's, past the wide
  // bodies' limit for A (kIntMax / BM) but not for B (kIntMax / BK), is B's once turned.
  EXPECT_EQ(launch(Op::Trans, Op::Trans, 2147483647 / 64 + 1, 8, 0).body, kEdgeBodyPlain);
  // A leading dimension past the wide bodies' int offsets takes a narrow body, aligned or not.
  const EdgeLaunch far = launch(Op::NoTrans, Op::NoTrans, 2147483647 / 64 + 1, 8, 0);
  EXPECT_EQ(far.operands & kOperandNarrowAB, 0);
  EXPECT_EQ(far.body, kEdgeBodyNarrow);
}

// Packing copies exactly the operands the edge kernel cannot read as they lie (B
// transposed) or reads only 4 bytes at a time (rows not 16-byte aligned), into matrices
// whose rows start 16-byte aligned, the second one 256-byte aligned.
TEST(BlasCall, PackingCopiesOnlyWhatTheEdgeKernelCannotReadWide) {
  alignas(256) static float buffer[4096];
  const float *A = buffer, *B = buffer + 1024;
  float *C = buffer + 2048;
  const auto plan = [&](Op a, Op b, int lda, int ldb, int offset) {
    return pack_plan(edge_product(to_row_major(Layout::RowMajor, a, b, 5, 7, 9, 1.0f, A + offset, lda, B, ldb, 0.0f,
                                               C, 8)).g);
  };
  const PackPlan none = plan(Op::NoTrans, Op::NoTrans, 12, 8, 0);
  EXPECT_FALSE(none.a || none.b);
  EXPECT_TRUE(wide_edge_operands(to_row_major(Layout::RowMajor, Op::NoTrans, Op::NoTrans, 5, 7, 9, 1.0f, A, 12, B, 8,
                                              0.0f, C + 1, 9)))
      << "C may be unaligned: the edge kernel's epilogue narrows its own accesses";
  // A transposed A with aligned rows is read as it lies (copied into the stage, no
  // transposing store); with rows off alignment it is copied, still transposed (K x M).
  EXPECT_TRUE(wide_edge_operands(to_row_major(Layout::RowMajor, Op::Trans, Op::NoTrans, 5, 7, 9, 1.0f, A, 8, B, 8,
                                               0.0f, C, 8)));
  const PackPlan aligned_t = plan(Op::Trans, Op::NoTrans, 8, 8, 0);
  EXPECT_FALSE(aligned_t.a || aligned_t.b);
  const PackPlan a = plan(Op::Trans, Op::NoTrans, 5, 8, 0);
  EXPECT_TRUE(a.a);
  EXPECT_FALSE(a.b);
  EXPECT_EQ(a.a_ld, 8);     // M = 5 rounded up to 4: the K x M matrix's rows
  EXPECT_EQ(a.bytes, 512);  // 9 x 8 floats, rounded up to 256 bytes
  const PackPlan plain_a = plan(Op::NoTrans, Op::NoTrans, 9, 8, 0);
  EXPECT_TRUE(plain_a.a);
  EXPECT_EQ(plain_a.a_ld, 12);  // K = 9 rounded up to 4
  EXPECT_EQ(plain_a.bytes, 256);  // 5 x 12 floats, rounded up to 256 bytes
  const PackPlan both = plan(Op::NoTrans, Op::Trans, 12, 12, 1);  // A one float in, B transposed
  EXPECT_TRUE(both.a && both.b);
  EXPECT_EQ(both.b_ld, 8);  // N = 7 rounded up to 4
  EXPECT_EQ(both.b_offset % 256, 0);
  EXPECT_EQ(both.bytes, both.b_offset + 9 * 8 * 4);
  // The packed product reads the workspace, untransposed, and keeps C as it was.
  alignas(256) static float workspace[1024];
  const RowMajorGemm g =
      edge_product(to_row_major(Layout::RowMajor, Op::NoTrans, Op::Trans, 5, 7, 9, 1.0f, A + 1, 12, B, 12, 0.0f, C, 8))
          .g;
  const RowMajorGemm p = packed_product(g, both, workspace);
  EXPECT_EQ(p.A, workspace);
  EXPECT_EQ(p.lda, 12);
  EXPECT_EQ(reinterpret_cast<const char *>(p.B) - reinterpret_cast<const char *>(workspace), both.b_offset);
  EXPECT_FALSE(p.trans_a || p.trans_b);
  EXPECT_TRUE(plain_edge_operands(p));
  EXPECT_TRUE(wide_edge_operands(p));
  EXPECT_FALSE(wide_edge_operands(g));
  EXPECT_FALSE(plain_edge_operands(g));  // B transposed
  // Unaligned rows alone: the edge kernel reads them, narrowly.
  const RowMajorGemm narrow =
      to_row_major(Layout::RowMajor, Op::NoTrans, Op::NoTrans, 5, 7, 9, 1.0f, A + 1, 9, B, 8, 0.0f, C, 8);
  EXPECT_TRUE(plain_edge_operands(narrow));
  EXPECT_FALSE(wide_edge_operands(narrow));
  EXPECT_EQ(p.C, C);
  // A packed transposed A keeps its orientation and its new leading dimension.
  const RowMajorGemm ta =
      edge_product(to_row_major(Layout::RowMajor, Op::Trans, Op::NoTrans, 5, 7, 9, 1.0f, A, 5, B, 8, 0.0f, C, 8)).g;
  const RowMajorGemm pta = packed_product(ta, pack_plan(ta), workspace);
  EXPECT_TRUE(pta.trans_a);
  EXPECT_EQ(pta.lda, 8);
  EXPECT_EQ(pta.B, B);
  EXPECT_TRUE(plain_edge_operands(pta));
  EXPECT_TRUE(wide_edge_operands(pta));
  EXPECT_FALSE(wide_edge_operands(ta));
}

// A B^T needs one operand transposed into the workspace whichever way it is computed: the
// product is turned round (C^T = B A^T, C written transposed) where A is the smaller, so
// that the copy is of A; where B is the smaller, or the tile cannot take the turned shape,
// it is left as it is.
TEST(BlasCall, PackingTransposesTheSmallerOperandOfABTransposed) {
  alignas(256) static float buffer[1 << 16];
  const float *A = buffer, *B = buffer + (1 << 14);
  float *C = buffer + (1 << 15);
  const SgemmTile t{64, 64, 16, 32, 32, 1, 4, 4, 2, 0, 0};
  // A 8 x 64, B 200 x 64 (stored N x K): the copy of A is the smaller.
  const RowMajorGemm wide = to_row_major(Layout::RowMajor, Op::NoTrans, Op::Trans, 8, 200, 64, 1.0f, A, 64, B, 64, 0.0f,
                                         C, 200);
  const RowMajorGemm turned = pack_form(wide, t);
  EXPECT_EQ(turned.M, 200);
  EXPECT_EQ(turned.N, 8);
  EXPECT_EQ(turned.A, B);
  EXPECT_FALSE(turned.trans_a);
  EXPECT_EQ(turned.B, A);
  EXPECT_TRUE(turned.trans_b);
  EXPECT_TRUE(turned.trans_c);
  const PackPlan p = pack_plan(turned);
  EXPECT_FALSE(p.a);
  EXPECT_TRUE(p.b);
  EXPECT_EQ(packed_floats(turned, p).total(), 8 * 64);
  // B the smaller: as it is, B packed.
  const RowMajorGemm tall = to_row_major(Layout::RowMajor, Op::NoTrans, Op::Trans, 200, 8, 64, 1.0f, A, 64, B, 64, 0.0f,
                                         C, 8);
  const RowMajorGemm kept = pack_form(tall, t);
  EXPECT_EQ(kept.M, 200);
  EXPECT_FALSE(kept.trans_c);
  EXPECT_EQ(packed_floats(kept, pack_plan(kept)).total(), 8 * 64);
  // Neither transposed, or A transposed: edge_product's form.
  EXPECT_FALSE(pack_form(to_row_major(Layout::RowMajor, Op::Trans, Op::NoTrans, 8, 200, 64, 1.0f, A, 8, B, 200, 0.0f,
                                      C, 200),
                         t)
                   .trans_c);
  // A tile whose grid cannot take the turned shape's rows keeps the product as it is.
  const RowMajorGemm huge = to_row_major(Layout::RowMajor, Op::NoTrans, Op::Trans, 8, 70000 * 64, 64, 1.0f, A, 64, B,
                                         64, 0.0f, C, 70000 * 64);
  EXPECT_EQ(pack_form(huge, t).M, 8);
}

// PackScope::transposed_only copies a transposed B alone, however A's rows lie, and turns the
// product round where that makes the copy smaller; where A's rows are aligned, or B is not
// transposed, it differs from packing every operand in nothing.
TEST(BlasCall, TheTransposedOperandAlonePacksWithoutTheOther) {
  alignas(256) static float buffer[1 << 16];
  const float *A = buffer, *B = buffer + (1 << 14);
  float *C = buffer + (1 << 15);
  const SgemmTile t{64, 64, 16, 32, 32, 1, 4, 4, 2, 0, 0};
  // A 8 x 63 and B 200 x 63 (stored N x K), rows 63 floats apart: neither aligned.
  const RowMajorGemm nt = to_row_major(Layout::RowMajor, Op::NoTrans, Op::Trans, 8, 200, 63, 1.0f, A, 63, B, 63, 0.0f,
                                       C, 200);
  const PackPlan every = pack_plan(nt);
  EXPECT_TRUE(every.a);
  EXPECT_TRUE(every.b);
  const PackPlan alone = pack_plan(nt, PackScope::transposed_only);
  EXPECT_FALSE(alone.a);
  EXPECT_TRUE(alone.b);
  EXPECT_EQ(alone.b_offset, 0);
  EXPECT_EQ(alone.bytes, 4LL * 63 * 200);
  // Turned round, the transposed operand is A's 8 x 63: the copy of 504 floats, where
  // packing every operand copies all of both either way.
  const RowMajorGemm turned = pack_form(nt, t, PackScope::transposed_only);
  EXPECT_TRUE(turned.trans_c);
  EXPECT_EQ(turned.A, B);
  EXPECT_EQ(turned.B, A);
  EXPECT_EQ(packed_floats(turned, pack_plan(turned, PackScope::transposed_only)).total(), 8 * 63);
  EXPECT_FALSE(pack_form(nt, t).trans_c);
  EXPECT_TRUE(transposed_alone_differs(nt, t));
  // The packed product: B from the workspace, plain and aligned; A as it lies, unaligned,
  // which the edge kernel's narrow bodies read.
  alignas(256) static float workspace[1 << 12];
  const RowMajorGemm packed = packed_product(turned, pack_plan(turned, PackScope::transposed_only), workspace);
  EXPECT_EQ(packed.A, B);
  EXPECT_EQ(packed.lda, 63);
  EXPECT_EQ(packed.B, workspace);
  EXPECT_FALSE(packed.trans_b);
  EXPECT_TRUE(plain_edge_operands(packed));
  EXPECT_FALSE(wide_edge_operands(packed));
  // Both operands' rows aligned (K = 64): the same as packing every operand.
  const RowMajorGemm aligned = to_row_major(Layout::RowMajor, Op::NoTrans, Op::Trans, 8, 200, 64, 1.0f, A, 64, B, 64,
                                            0.0f, C, 200);
  EXPECT_FALSE(transposed_alone_differs(aligned, t));
  // Which operand stays unpacked depends on the form packing takes: turned round (A the
  // smaller), B's memory is the operand read as it lies. B's rows unaligned: it differs.
  const RowMajorGemm b_unaligned = to_row_major(Layout::RowMajor, Op::NoTrans, Op::Trans, 8, 200, 64, 1.0f, A, 64, B,
                                                65, 0.0f, C, 200);
  EXPECT_TRUE(pack_form(b_unaligned, t, PackScope::transposed_only).trans_c);
  EXPECT_TRUE(transposed_alone_differs(b_unaligned, t));
  // A's rows unaligned but A the one transposed (turned round): B's aligned rows stay, and
  // packing A alone is what packing every operand does.
  const RowMajorGemm a_unaligned = to_row_major(Layout::RowMajor, Op::NoTrans, Op::Trans, 8, 200, 64, 1.0f, A, 65, B,
                                                64, 0.0f, C, 200);
  EXPECT_FALSE(transposed_alone_differs(a_unaligned, t));
  // B not transposed: nothing to pack alone.
  const RowMajorGemm nn = to_row_major(Layout::RowMajor, Op::NoTrans, Op::NoTrans, 8, 200, 63, 1.0f, A, 63, B, 201,
                                       0.0f, C, 200);
  EXPECT_FALSE(transposed_alone_differs(nn, t));
  EXPECT_EQ(pack_plan(nn, PackScope::transposed_only).bytes, 0);
}


// An entry tuned as a BLAS product is the one candidate for exactly its call (sizes, ops,
// layout, rows' alignment), on the kernel the tuner timed it on and split as the tuner split
// it; any other call predicts.
TEST(BlasCall, ATunedBlasProductIsAnExactMatchForItsOwnCallOnly) {
  alignas(16) static float buffer[4];
  const float *A = buffer, *B = buffer;
  float *C = buffer;
  const SgemmTile seed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
  const TunedShape plain{4096, 4096, 4096, seed, 90.0, 45.0, 4};
  // 1000^3 NT, row-major: B stays transposed, the kernel of any operands; tuned with no plain
  // rate, so that it is never a tile to predict with.
  const TunedShape nt{1000, 1000, 1000, seed, 95.0, 30.0, 4, 0, 0, 0, 0.0, true, kBlasOpsRecorded | kBlasTransB};
  const TunedShape entries[] = {plain, nt};
  const auto choose = [&](const RowMajorGemm &g, bool tail_split = true) {
    Selection out[8];
    const int n = select_candidates(entries, 2, g, 132, out, 8, tail_split);
    return n > 0 ? out[0] : Selection{SelectKind::none, -1, false, 1, 0.0};
  };
  const auto call = [&](Layout l, Op a, Op b, int M, int N, int K, int pad, const float *at_a) {
    Call c = tight_call(l, a, b, M, N, K, at_a, B, C);
    c.lda += pad;
    c.ldb += pad;
    c.ldc += pad;
    return c.row_major();
  };
  const RowMajorGemm own = call(Layout::RowMajor, Op::NoTrans, Op::Trans, 1000, 1000, 1000, 0, A);
  const Selection exact = choose(own);
  EXPECT_EQ(exact.kind, SelectKind::exact);
  EXPECT_EQ(exact.entry, 1);
  EXPECT_TRUE(exact.edges);
  EXPECT_EQ(exact.splits, kEdgeFillSplit);
  Selection all[8];
  EXPECT_EQ(select_candidates(entries, 2, own, 132, all, 8), 1);
  // Padded rows that stay 16-byte aligned: the same kernel over the same tiles.
  EXPECT_EQ(choose(call(Layout::RowMajor, Op::NoTrans, Op::Trans, 1000, 1000, 1000, 4, A)).kind, SelectKind::exact);
  // The same computation written column-major (C^T = B^T A^T: op(A) transposed, op(B) not).
  EXPECT_EQ(choose(call(Layout::ColMajor, Op::Trans, Op::NoTrans, 1000, 1000, 1000, 0, A)).kind, SelectKind::exact);
  // Rows off alignment (padding by 3, an operand at an offset), other ops, other sizes, or a
  // table timed before the tail split: predicted, by the plain entry alone.
  for (const RowMajorGemm &other :
       {call(Layout::RowMajor, Op::NoTrans, Op::Trans, 1000, 1000, 1000, 3, A),
        call(Layout::RowMajor, Op::NoTrans, Op::Trans, 1000, 1000, 1000, 0, A + 1),
        call(Layout::RowMajor, Op::Trans, Op::NoTrans, 1000, 1000, 1000, 0, A),
        call(Layout::ColMajor, Op::NoTrans, Op::Trans, 1000, 1000, 1000, 0, A),
        call(Layout::RowMajor, Op::NoTrans, Op::Trans, 1000, 1000, 999, 0, A),
        call(Layout::RowMajor, Op::NoTrans, Op::Trans, 1001, 1000, 1000, 0, A)}) {
    const Selection s = choose(other);
    EXPECT_EQ(s.kind, SelectKind::predicted);
    EXPECT_EQ(s.entry, 0);
  }
  EXPECT_EQ(choose(own, false).kind, SelectKind::predicted);

  // NN entries: the edge kernel with its tail split where the tile does not divide the shape,
  // the fast kernel, unsplit, where it does.
  const TunedShape nn[] = {{1000, 1000, 1000, seed, 95.0, 30.0, 4, 0, 0, 0, 0.0, true, kBlasOpsRecorded},
                           {1024, 512, 256, seed, 97.0, 31.0, 4, 0, 0, 0, 0.0, true, kBlasOpsRecorded | kBlasColMajor}};
  Selection s[2];
  ASSERT_EQ(select_candidates(nn, 2, call(Layout::RowMajor, Op::NoTrans, Op::NoTrans, 1000, 1000, 1000, 0, A), 132,
                              s, 2),
            1);
  EXPECT_EQ(s[0].kind, SelectKind::exact);
  EXPECT_EQ(s[0].entry, 0);
  EXPECT_TRUE(s[0].edges);
  EXPECT_EQ(s[0].splits, kEdgeTailSplit);
  // Column-major 1024 x 512 x 256 is the row-major 512 x 1024 x 256 product of the swapped
  // operands: the same kernel over the same tiles, whichever way the call is written.
  for (const RowMajorGemm &same : {call(Layout::ColMajor, Op::NoTrans, Op::NoTrans, 1024, 512, 256, 0, A),
                                   call(Layout::RowMajor, Op::NoTrans, Op::NoTrans, 512, 1024, 256, 0, A)}) {
    ASSERT_EQ(select_candidates(nn, 2, same, 132, s, 2), 1);
    EXPECT_EQ(s[0].kind, SelectKind::exact);
    EXPECT_EQ(s[0].entry, 1);
    EXPECT_FALSE(s[0].edges);
    EXPECT_EQ(s[0].splits, 1);
  }
  // The row-major 1024 x 512 x 256 product is another one: neither entry takes it, and
  // neither has a plain rate to predict with.
  EXPECT_EQ(select_candidates(nn, 2, call(Layout::RowMajor, Op::NoTrans, Op::NoTrans, 1024, 512, 256, 0, A), 132, s,
                              2),
            0);
}

// The dense leading dimensions a BLAS entry was tuned with, for every layout and op pair.
TEST(BlasCall, TunedBlasProductsAreDenseAtTheirLayoutAndOps) {
  for (Layout l : kLayouts)
    for (Op a : kOps)
      for (Op b : kOps) {
        const unsigned ops = kBlasOpsRecorded | (a == Op::Trans ? kBlasTransA : 0u) |
                             (b == Op::Trans ? kBlasTransB : 0u) | (l == Layout::ColMajor ? kBlasColMajor : 0u);
        const TunedShape e{10, 20, 30, SgemmTile{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0}, 90.0, 1.0, 1, 0, 0, 0, 0.0,
                           true, ops};
        bool fits = false;
        const RowMajorGemm g = tuned_blas_product(e, &fits);
        ASSERT_TRUE(fits);
        const RowMajorGemm want = tight_call(l, a, b, 10, 20, 30, nullptr, nullptr, nullptr).row_major();
        EXPECT_EQ(route_key(g), route_key(want)) << describe(l, a, b);
      }
  // Sizes beyond an int; ops not recorded (a header emitted before blas_ops: 0 must not pass
  // for row-major NN) or with bits sgemm-tune does not write: nothing to match.
  for (const TunedShape &e : {TunedShape{1LL << 40, 1, 1, SgemmTile{}, 90.0, 1.0, 1, 0, 0, 0, 0.0, true,
                                         kBlasOpsRecorded},
                              TunedShape{10, 20, 30, SgemmTile{}, 90.0, 1.0, 1, 0, 0, 0, 0.0, true, 0},
                              TunedShape{10, 20, 30, SgemmTile{}, 90.0, 1.0, 1, 0, 0, 0, 0.0, true, kBlasTransB},
                              TunedShape{10, 20, 30, SgemmTile{}, 90.0, 1.0, 1, 0, 0, 0, 0.0, true,
                                         kBlasOpsRecorded | (1u << 4)}}) {
    bool fits = true;
    tuned_blas_product(e, &fits);
    EXPECT_FALSE(fits) << e.M << " " << e.blas_ops;
  }
}

// Where a plain entry and a BLAS one were tuned at the same product, the higher percent of
// cuBLAS wins; a BLAS entry whose ops were not recorded, or whose call would run on another
// kernel of its tile than the tuned one (leading dimensions past the fast kernel's int
// offsets), is no exact match.
TEST(BlasCall, ExactMatchesOfBothKindsAreWeighedAndOnlyTrustedOnesCount) {
  alignas(16) static float buffer[4];
  const SgemmTile seed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
  const auto dense = [&](int lda) {
    return to_row_major(Layout::RowMajor, Op::NoTrans, Op::NoTrans, 1024, 1088, 1024, 1.0f, buffer, lda, buffer,
                        1088, 0.0f, buffer, 1088);
  };
  const auto first = [&](const TunedShape *entries, int n, const RowMajorGemm &g) {
    Selection out[4];
    return select_candidates(entries, n, g, 132, out, 4) > 0 ? out[0] : Selection{SelectKind::none, -1, false, 1, 0.0};
  };
  // 1024 x 1088 x 1024, which the seed tile (128 x 64) divides: its fast kernel, tuned plain
  // (entry 0) and as NN (entry 1).
  TunedShape plain{1024, 1088, 1024, seed, 99.0, 40.0, 4};
  TunedShape nn{1024, 1088, 1024, seed, 50.0, 20.0, 4, 0, 0, 0, 0.0, true, kBlasOpsRecorded};
  {
    const TunedShape entries[] = {plain, nn};
    const Selection s = first(entries, 2, dense(1024));
    EXPECT_EQ(s.kind, SelectKind::exact);
    EXPECT_EQ(s.entry, 0);
  }
  nn.percent_of_cublas = 99.5;
  {
    const TunedShape entries[] = {plain, nn};
    const Selection s = first(entries, 2, dense(1024));
    EXPECT_EQ(s.kind, SelectKind::exact);
    EXPECT_EQ(s.entry, 1);
    EXPECT_FALSE(s.edges);  // the seed tile divides it: the fast kernel, as tuned
  }
  // Not recorded: the plain entry's exact match stands.
  nn.blas_ops = 0;
  {
    const TunedShape entries[] = {plain, nn};
    EXPECT_EQ(first(entries, 2, dense(1024)).entry, 0);
  }
  // A leading dimension past the fast kernel's int offsets: the call would run the edge
  // kernel, the tuned one ran the fast one.
  nn.blas_ops = kBlasOpsRecorded;
  const int far = 32 * 1024 * 1024;  // past INT_MAX / BM
  ASSERT_FALSE(leading_dimensions_fit_tile(seed, far, 1088, 1088));
  {
    const TunedShape entries[] = {nn};
    EXPECT_EQ(first(entries, 1, dense(1024)).kind, SelectKind::exact);
    EXPECT_EQ(first(entries, 1, dense(far)).kind, SelectKind::none);
  }
}

}  // namespace
}  // namespace sgemm_tune_kernels
