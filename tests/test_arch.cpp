#include <gtest/gtest.h>

#include "tuner/compile/arch.h"

namespace sgemm_tune {
namespace {

TEST(Arch, FromTheRecordedComputeCapability) {
  EXPECT_EQ(sm_arch("8.0"), "sm_80");
  EXPECT_EQ(sm_arch("8.6"), "sm_86");
  EXPECT_EQ(sm_arch("9.0"), "sm_90");
  EXPECT_EQ(sm_arch("10.0"), "sm_100");
  EXPECT_EQ(sm_arch("12.0"), "sm_120");
}

TEST(Arch, FromTheDeviceVersionsTheSameName) {
  EXPECT_EQ(sm_arch(8, 9), "sm_89");
  EXPECT_EQ(sm_arch(9, 0), "sm_90");
  EXPECT_EQ(sm_arch(10, 0), sm_arch("10.0"));
  EXPECT_EQ(sm_arch(12, 1), "sm_121");
}

}  // namespace
}  // namespace sgemm_tune
