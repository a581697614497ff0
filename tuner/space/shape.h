// A problem shape M x N x K: C (M x N) = A (M x K) * B (K x N).
//
// Written "MxNxK", a shape asks for the tile's fast kernel on dense row-major operands,
// and only tiles that divide it are timed there. Written with the ops of a BLAS call,
// "MxNxK:NT" (row-major) or "MxNxK:NT:col" (column-major; the first letter is op(A), the
// second op(B), N or T, as cblas_sgemm takes them), it is a BLAS product with dense operands
// (each leading dimension the least CBLAS allows), timed on the kernel of the tile that
// sgemm_tuned would launch for it: the fast kernel where the tile divides the product as it
// reaches the kernels and its operands are untransposed, else the tile's edge kernel
// (tuner/time/shape_route.h; sgemm_blas_call.h says how a BLAS call becomes that product).
#pragma once

#include <string>
#include <string_view>
#include <tuple>

namespace sgemm_tune {

struct Shape {
  long long M = 0, N = 0, K = 0;
  bool blas = false;       // written with ops: a BLAS product (see above)
  bool col_major = false;  // the BLAS product's layout (only with blas)
  bool trans_a = false, trans_b = false;  // op(A), op(B) (only with blas)

  double flops() const { return 2.0 * static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(K); }
  std::string to_string() const;  // "4096x4096x4096", "1000x1000x1000:NT", "1000x1000x1000:TN:col"
  // What follows the sizes in to_string, without the colon: "" for a plain shape, "NT",
  // "TN:col". The database's `operands` column.
  std::string operands_text() const;
  friend bool operator==(const Shape &a, const Shape &b) { return a.key() == b.key(); }
  friend bool operator!=(const Shape &a, const Shape &b) { return !(a == b); }
  friend bool operator<(const Shape &a, const Shape &b) { return a.key() < b.key(); }

 private:
  std::tuple<long long, long long, long long, bool, bool, bool, bool> key() const {
    return {M, N, K, blas, col_major, trans_a, trans_b};
  }
};

// Largest dimension accepted: the kernels take int sizes.
inline constexpr long long kMaxDimension = 2147483647LL;

// Parses "MxNxK" (also "MXNXK"), "MxNxK:OPS" and "MxNxK:OPS:LAYOUT" with OPS one of NN, NT,
// TN, TT and LAYOUT row or col; throws UserError naming the text and what is wrong.
Shape parse_shape(std::string_view text);

// The shape of sizes M, N, K and operands as operands_text writes them ("" plain); throws
// UserError for operands it does not know.
Shape shape_with_operands(long long M, long long N, long long K, std::string_view operands);

}  // namespace sgemm_tune
