#include "tuner/space/shape.h"

#include <cctype>
#include <vector>

#include "tuner/common/errors.h"

namespace sgemm_tune {
namespace {

constexpr const char *kShapeForms = "MxNxK, MxNxK:OPS or MxNxK:OPS:col, e.g. 4096x4096x4096 or 1000x1000x1000:NT";

// Sets the ops and layout of `shape` from "NT" or "NT:col"; false when the text is not one.
bool read_operands(std::string_view text, Shape &shape) {
  const std::size_t colon = text.find(':');
  const std::string_view ops = text.substr(0, colon);
  const std::string_view layout = colon == std::string_view::npos ? "row" : text.substr(colon + 1);
  if (ops.size() != 2) return false;
  for (char c : ops)
    if (c != 'N' && c != 'T') return false;
  if (layout != "row" && layout != "col") return false;
  shape.blas = true;
  shape.trans_a = ops[0] == 'T';
  shape.trans_b = ops[1] == 'T';
  shape.col_major = layout == "col";
  return true;
}

}  // namespace

std::string Shape::operands_text() const {
  if (!blas) return "";
  std::string out{trans_a ? 'T' : 'N', trans_b ? 'T' : 'N'};
  return col_major ? out + ":col" : out;
}

std::string Shape::to_string() const {
  const std::string sizes = std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
  return blas ? sizes + ":" + operands_text() : sizes;
}

Shape parse_shape(std::string_view text) {
  const std::string quoted = "'" + std::string(text) + "'";
  const std::size_t colon = text.find(':');
  const std::string_view sizes = text.substr(0, colon);
  std::vector<long long> dims;
  std::size_t pos = 0;
  while (true) {
    std::size_t end = pos;
    while (end < sizes.size() && sizes[end] != 'x' && sizes[end] != 'X') ++end;
    const std::string_view part = sizes.substr(pos, end - pos);
    if (part.empty()) throw UserError("shape " + quoted + " is not of the form " + kShapeForms);
    long long value = 0;
    for (char c : part) {
      if (c == '-') throw UserError("shape " + quoted + ": dimensions must be positive");
      if (!std::isdigit(static_cast<unsigned char>(c)))
        throw UserError("shape " + quoted + ": '" + std::string(part) + "' is not a whole number");
      value = value * 10 + (c - '0');
      if (value > kMaxDimension)
        throw UserError("shape " + quoted + ": dimension " + std::string(part) + " exceeds " +
                        std::to_string(kMaxDimension));
    }
    if (value == 0) throw UserError("shape " + quoted + ": dimensions must be positive");
    dims.push_back(value);
    if (end == sizes.size()) break;
    pos = end + 1;
  }
  if (dims.size() != 3) throw UserError("shape " + quoted + " is not of the form " + kShapeForms);
  Shape shape{dims[0], dims[1], dims[2]};
  if (colon != std::string_view::npos && !read_operands(text.substr(colon + 1), shape))
    throw UserError("shape " + quoted + ": '" + std::string(text.substr(colon + 1)) +
                    "' is not the ops of a BLAS call (NN, NT, TN or TT: op(A) then op(B)), optionally followed by "
                    ":row or :col");
  return shape;
}

Shape shape_with_operands(long long M, long long N, long long K, std::string_view operands) {
  Shape shape{M, N, K};
  if (!operands.empty() && !read_operands(operands, shape))
    throw UserError("'" + std::string(operands) + "' is not the operands of a shape (NN, NT, TN or TT, optionally "
                    "followed by :row or :col)");
  return shape;
}

}  // namespace sgemm_tune
