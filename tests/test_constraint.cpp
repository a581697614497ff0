#include <gtest/gtest.h>

#include "tuner/common/errors.h"
#include "tuner/space/constraint.h"

namespace sgemm_tune {
namespace {

const SgemmTile kSeed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};

bool holds(const std::string &text, const SgemmTile &t = kSeed) { return Constraint::parse(text).holds(t); }

TEST(Constraint, EvaluatesIntegerArithmeticAndComparisons) {
  EXPECT_TRUE(holds("BM * BN == 8192"));
  EXPECT_TRUE(holds("BM / WM == 2 && BN / WN == 2"));
  EXPECT_TRUE(holds("7 / 2 == 3"));  // integer division
  EXPECT_TRUE(holds("BM % 3 == 2"));
  EXPECT_FALSE(holds("BM < 128"));
  EXPECT_TRUE(holds("BM <= 128"));
  EXPECT_TRUE(holds("!(BK > 16)"));
  EXPECT_TRUE(holds("-BM + 129 == 1"));
  EXPECT_TRUE(holds("BM == 64 || BN == 64"));
  EXPECT_TRUE(holds("1 + 2 * 3 == 7"));      // precedence
  EXPECT_TRUE(holds("(1 + 2) * 3 == 9"));
  EXPECT_TRUE(holds("2 < 3 == 1"));          // comparison binds tighter than equality
}

TEST(Constraint, KnowsDerivedQuantities) {
  EXPECT_TRUE(holds("THREADS == 128"));
  // Two stages of A (16 x 128 floats and 3 x 8 of skew) and B (16 x 64 floats).
  EXPECT_TRUE(holds("SMEM_BYTES == 2 * (16 * 128 + 3 * 8 + 16 * 64) * 4"));
}

TEST(Constraint, UndefinedArithmeticFailsTheCandidate) {
  SgemmTile zero = kSeed;
  zero.WM = 0;
  EXPECT_FALSE(holds("BM / WM > 0", zero));
  EXPECT_FALSE(holds("BM % WM == 0", zero));
  EXPECT_TRUE(holds("WM == 0 || BM % WM == 0", zero));  // short-circuit
  EXPECT_FALSE(holds("1099511627776 * 1099511627776 > 0"));  // overflow
}

void expect_parse_error(const std::string &text, const std::string &fragment) {
  try {
    Constraint::parse(text);
    FAIL() << "accepted '" << text << "'";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Constraint, ParseErrorsSayWhatAndWhere) {
  expect_parse_error("BM <", "ends early");
  expect_parse_error("BM = 128", "unexpected '='");
  expect_parse_error("FOO > 1", "unknown name 'FOO'");
  expect_parse_error("(BM > 1", "expected ')'");
  expect_parse_error("BM > 1)", "unexpected ')'");
  expect_parse_error("BM $ 2", "unexpected '$'");
  expect_parse_error("", "ends early");
  expect_parse_error(std::string(300, '(') + "1" + std::string(300, ')'), "nested too deeply");
  expect_parse_error(std::string(2000, '1'), "longer than");
}

}  // namespace
}  // namespace sgemm_tune
