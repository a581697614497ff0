#include <gtest/gtest.h>

#include "tuner/prune/prune.h"

namespace sgemm_tune {
namespace {

const SmLimits kH200 = sm_limits_for_arch("sm_90");
const SgemmTile kSeed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};

TEST(Prune, SeedSurvivesBeforeAndAfterCompiling) {
  EXPECT_FALSE(prune_before_compile(kSeed, PruneSettings{}, kH200).pruned);
  ResourceUsage usage;
  usage.registers = 139;
  const Occupancy occ = predict_occupancy(kH200, tile_resources(kSeed, usage.registers));
  EXPECT_FALSE(prune_after_compile(kSeed, usage, occ, PruneSettings{}).pruned);
}

TEST(Prune, TooManyLiveFloatsIsPrunedBeforeCompiling) {
  const SgemmTile big{256, 256, 8, 128, 128, 1, 8, 8, 2, 0, 0};  // 512 accumulators a thread
  const PruneVerdict v = prune_before_compile(big, PruneSettings{}, kH200);
  EXPECT_TRUE(v.pruned);
  EXPECT_EQ(v.reason, kPruneRegisterEstimate);
}

TEST(Prune, SharedMemoryOverTheBlockLimitIsPrunedBeforeCompiling) {
  // 4 stages x (A: 32 x 256 + 7 x 4 skew, B: 32 x 256) floats x 4 bytes
  const SgemmTile deep{256, 256, 32, 64, 64, 1, 8, 8, 4, 0, 0};
  ASSERT_EQ(sgemm_tune_kernels::check_tile(deep), TileRule::ok);
  const PruneVerdict v = prune_before_compile(deep, PruneSettings{}, kH200);
  EXPECT_TRUE(v.pruned);
  EXPECT_EQ(v.reason, kPruneSharedMemory);
  EXPECT_NE(v.detail.find("262592"), std::string::npos) << v.detail;
}

TEST(Prune, SpillsArePrunedUnlessAllowed) {
  ResourceUsage usage;
  usage.registers = 255;
  usage.spill_store_bytes = 64;
  const Occupancy occ = predict_occupancy(kH200, tile_resources(kSeed, usage.registers));
  EXPECT_EQ(prune_after_compile(kSeed, usage, occ, PruneSettings{}).reason, kPruneSpills);
  PruneSettings allow;
  allow.allow_spills = true;
  EXPECT_FALSE(prune_after_compile(kSeed, usage, occ, allow).pruned);
}

TEST(Prune, LowResidencyIsPrunedWithTheLimiterNamed) {
  ResourceUsage usage;
  usage.registers = 200;  // 6656 a warp, 2 warps per sub-partition: 2 blocks of 4 warps
  const Occupancy occ = predict_occupancy(kH200, tile_resources(kSeed, usage.registers));
  ASSERT_EQ(occ.warps_per_sm, 8);
  PruneSettings strict;
  strict.min_warps_per_sm = 12;
  const PruneVerdict v = prune_after_compile(kSeed, usage, occ, strict);
  EXPECT_TRUE(v.pruned);
  EXPECT_EQ(v.reason, kPruneResidency);
  EXPECT_NE(v.detail.find("registers"), std::string::npos) << v.detail;
  EXPECT_FALSE(prune_after_compile(kSeed, usage, occ, PruneSettings{}).pruned);
}

}  // namespace
}  // namespace sgemm_tune
