#include "tuner/record/shape_columns.h"

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
  return shape_with_operands(st.column_int("m"), st.column_int("n"), st.column_int("k"), st.column_text("operands"));
}

}  // namespace sgemm_tune
