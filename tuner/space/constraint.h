// Extra constraints of a search space: integer expressions over the tile parameters
// (BM, BN, ..., STAGES) and derived quantities (THREADS, SMEM_BYTES), e.g.
//   "BM * BN <= 16384", "THREADS >= 128 && THREADS <= 256", "BM % (2 * WM) == 0".
// Operators, loosest first: ||  &&  == !=  < <= > >=  + -  * / %  unary ! -, and
// parentheses. Arithmetic is 64-bit integer; a comparison is 1 or 0; a candidate passes
// when the whole expression is non-zero. Division or modulo by zero fails the candidate.
//
// The language is small and integer-only on purpose: tile constraints are divisibility
// and size bounds, where a floating-point evaluator would make 7 / 2 == 3.5.
#pragma once

#include <memory>
#include <string>

#include "tuner/space/tile.h"

namespace sgemm_tune {

class Constraint {
 public:
  // Throws UserError with the text, the position and what was expected.
  static Constraint parse(const std::string &text);

  bool holds(const SgemmTile &tile) const;
  const std::string &text() const { return text_; }

  struct Node;

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
};

}  // namespace sgemm_tune
