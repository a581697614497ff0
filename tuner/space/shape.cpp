#include "tuner/space/shape.h"

#include <cctype>
#include <vector>

#include "tuner/common/errors.h"

namespace sgemm_tune {

std::string Shape::to_string() const {
  return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
}

Shape parse_shape(std::string_view text) {
  const std::string quoted = "'" + std::string(text) + "'";
  std::vector<long long> dims;
  std::size_t pos = 0;
  while (true) {
    std::size_t end = pos;
    while (end < text.size() && text[end] != 'x' && text[end] != 'X') ++end;
    const std::string_view part = text.substr(pos, end - pos);
    if (part.empty())
      throw UserError("shape " + quoted + " is not of the form MxNxK (e.g. 4096x4096x4096)");
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
    if (end == text.size()) break;
    pos = end + 1;
  }
  if (dims.size() != 3) throw UserError("shape " + quoted + " is not of the form MxNxK (e.g. 4096x4096x4096)");
  return Shape{dims[0], dims[1], dims[2]};
}

}  // namespace sgemm_tune
