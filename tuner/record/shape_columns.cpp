#include "tuner/record/shape_columns.h"

#include "tuner/common/errors.h"

namespace sgemm_tune {

std::string shape_column_list(std::string_view prefix) {
  const std::string p(prefix);
  return p + "m, " + p + "n, " + p + "k, " + p + "operands";
}

std::string shape_column_match(std::string_view prefix) {
  const std::string p(prefix);
  return p + "m = :m AND " + p + "n = :n AND " + p + "k = :k AND " + p + "operands = :operands";
}

void bind_shape(Statement &st, const Shape &shape) {
  st.bind(":m", shape.M).bind(":n", shape.N).bind(":k", shape.K).bind(":operands", shape.operands_text());
}

Shape read_shape(const Statement &st) {
  const std::string operands = st.column_text("operands");
  Shape shape = shape_with_operands(st.column_int("m"), st.column_int("n"), st.column_int("k"), operands);
  // Written as binds write it, else rows of one shape would be matched under two texts.
  if (shape.operands_text() != operands)
    throw UserError("operands '" + operands + "' of a result are not written as sgemm-tune writes them ('" +
                    shape.operands_text() + "')");
  return shape;
}

}  // namespace sgemm_tune
