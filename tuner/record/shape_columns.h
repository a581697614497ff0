// A result's shape in the results table: m, n, k and operands (Shape::operands_text), so
// that a statement reads and binds them in one place.
#pragma once

#include <string>
#include <string_view>

#include "tuner/record/sqlite.h"
#include "tuner/space/shape.h"

namespace sgemm_tune {

// "x.m, x.n, x.k, x.operands" for prefix "x."
std::string shape_column_list(std::string_view prefix = "");
// "x.m = :m AND x.n = :n AND x.k = :k AND x.operands = :operands" for prefix "x."
std::string shape_column_match(std::string_view prefix = "");
// Binds the shape to :m, :n, :k and :operands.
void bind_shape(Statement &st, const Shape &shape);
// The shape from the columns m, n, k and operands of a SELECT (a shape_column_list). Throws
// UserError for operands that are not a shape's (a database is read as untrusted).
Shape read_shape(const Statement &st);

}  // namespace sgemm_tune
