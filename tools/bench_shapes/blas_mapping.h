// Where a CBLAS call's operands lie, and the column-major cublasSgemm call that computes the
// same product. cuBLAS only knows column-major storage; a row-major matrix with leading
// dimension ld is, read column-major, its transpose with the same ld, so a row-major call
// C = op(A) op(B) becomes the column-major C^T = op(B)^T op(A)^T: the operands swap places
// and so do M and N, while each operand keeps its own op and leading dimension.
// Host-only, so that --self-test checks it against the definition without a GPU.
#pragma once

#include <cstddef>

#include "sgemm_blas_call.h"

namespace bench_shapes {

using sgemm_tune::Layout;
using sgemm_tune::Op;

inline const char *layout_name(Layout l) { return l == Layout::RowMajor ? "row" : "col"; }
inline char op_name(Op o) { return o == Op::Trans ? 'T' : 'N'; }

// The matrix an operand is stored as: op(X) is op_rows x op_cols, X its transpose when op is
// Trans. Its lines (rows when row-major, columns when column-major) are ld floats apart and
// `length` floats long.
struct Stored {
  int rows, cols;
  Stored(Op op, int op_rows, int op_cols)
      : rows(op == Op::Trans ? op_cols : op_rows), cols(op == Op::Trans ? op_rows : op_cols) {}
  int lines(Layout l) const { return l == Layout::RowMajor ? rows : cols; }
  int length(Layout l) const { return l == Layout::RowMajor ? cols : rows; }
  // The least leading dimension CBLAS accepts.
  int min_ld(Layout l) const { return length(l) > 1 ? length(l) : 1; }
  // Floats from the first element to one past the last.
  size_t extent(Layout l, int ld) const {
    return lines(l) == 0 || length(l) == 0 ? 0 : size_t(lines(l) - 1) * ld + length(l);
  }
  // The offset of element (r, c) of the stored matrix.
  size_t at(Layout l, int ld, int r, int c) const {
    return l == Layout::RowMajor ? size_t(r) * ld + c : size_t(c) * ld + r;
  }
};

// C = alpha op(A) op(B) + beta C as cblas_sgemm takes it; C is M x N.
struct BlasCall {
  Layout layout;
  Op op_a, op_b;
  int M, N, K;
  int lda, ldb, ldc;
  Stored a() const { return Stored(op_a, M, K); }
  Stored b() const { return Stored(op_b, K, N); }
  Stored c() const { return Stored(Op::NoTrans, M, N); }
};

// The column-major call (cublasSgemm's arguments) computing the same product: m x n result
// = op_first(first) op_second(second), where `first` is A unless `swapped`, then B.
struct ColumnMajorCall {
  Op op_first, op_second;
  int m, n, k;
  bool swapped;
  int ld_first, ld_second, ldc;
};

inline ColumnMajorCall column_major_call(const BlasCall &c) {
  if (c.layout == Layout::ColMajor) return {c.op_a, c.op_b, c.M, c.N, c.K, false, c.lda, c.ldb, c.ldc};
  return {c.op_b, c.op_a, c.N, c.M, c.K, true, c.ldb, c.lda, c.ldc};
}

// The definition cuBLAS documents for a column-major call, on the host, summing in k order
// in double. `first`, `second` and `C` are as the call's pointers would be.
template <typename Get, typename Put>
void column_major_reference(const ColumnMajorCall &call, Get first, Get second, Put c) {
  for (int j = 0; j < call.n; ++j)
    for (int i = 0; i < call.m; ++i) {
      double sum = 0;
      for (int l = 0; l < call.k; ++l) {
        const double x = call.op_first == Op::NoTrans ? first(size_t(l) * call.ld_first + i)
                                                      : first(size_t(i) * call.ld_first + l);
        const double y = call.op_second == Op::NoTrans ? second(size_t(j) * call.ld_second + l)
                                                       : second(size_t(l) * call.ld_second + j);
        sum += x * y;
      }
      c(size_t(j) * call.ldc + i, sum);
    }
}

// The definition of cblas_sgemm itself, elementwise, in the same summation order.
template <typename Get, typename Put>
void blas_reference(const BlasCall &call, Get a, Get b, Put c) {
  const Stored sa = call.a(), sb = call.b(), sc = call.c();
  const Layout l = call.layout;
  for (int i = 0; i < call.M; ++i)
    for (int j = 0; j < call.N; ++j) {
      double sum = 0;
      for (int p = 0; p < call.K; ++p) {
        const double x = call.op_a == Op::NoTrans ? a(sa.at(l, call.lda, i, p)) : a(sa.at(l, call.lda, p, i));
        const double y = call.op_b == Op::NoTrans ? b(sb.at(l, call.ldb, p, j)) : b(sb.at(l, call.ldb, j, p));
        sum += x * y;
      }
      c(sc.at(l, call.ldc, i, j), sum);
    }
}

}  // namespace bench_shapes
