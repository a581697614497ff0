#include <gtest/gtest.h>

#include "tuner/common/errors.h"
#include "tuner/space/shape.h"

namespace sgemm_tune {
namespace {

TEST(Shape, ParsesMxNxK) {
  const Shape s = parse_shape("4096x2048X1024");
  EXPECT_EQ(s.M, 4096);
  EXPECT_EQ(s.N, 2048);
  EXPECT_EQ(s.K, 1024);
  EXPECT_EQ(s.to_string(), "4096x2048x1024");
  EXPECT_DOUBLE_EQ(s.flops(), 2.0 * 4096 * 2048 * 1024);
}

void expect_rejected(const std::string &text, const std::string &fragment) {
  try {
    parse_shape(text);
    FAIL() << "accepted '" << text << "'";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Shape, RejectsBadShapesWithTheCause) {
  expect_rejected("0x4096x4096", "positive");
  expect_rejected("-1x4096x4096", "positive");
  expect_rejected("4096x4096", "MxNxK");
  expect_rejected("4096x4096x4096x1", "MxNxK");
  expect_rejected("ax4096x4096", "not a whole number");
  expect_rejected("4096x x4096", "not a whole number");
  expect_rejected("", "MxNxK");
  expect_rejected("4096xx4096", "MxNxK");
  expect_rejected("99999999999x1x1", "exceeds");
}

}  // namespace
}  // namespace sgemm_tune
