// The occupancy model against cases worked by hand from the rules in the CUDA occupancy
// calculator (registers per warp in units of 256, per sub-partition; 1 KB reserved per
// block; shared memory in units of 128 bytes).
#include <gtest/gtest.h>

#include "tuner/prune/occupancy.h"

namespace sgemm_tune {
namespace {

Occupancy h200(int threads, int regs, int dynamic_smem, int static_smem = 0) {
  return predict_occupancy(sm_limits_for_arch("sm_90"), KernelResources{threads, regs, static_smem, dynamic_smem});
}

TEST(Occupancy, SeedConfigurationThroughNvrtc) {
  // 139 registers: 4448 per warp -> 4608; 16384 / 4608 = 3 warps per sub-partition,
  // 12 per SM, 3 blocks of 4 warps. Shared memory alone would allow 9.
  const Occupancy o = h200(128, 139, 2 * (16 * 130 + 16 * 64) * 4);
  EXPECT_EQ(o.blocks_per_sm, 3);
  EXPECT_EQ(o.warps_per_sm, 12);
  EXPECT_EQ(o.limiter, OccupancyLimiter::registers);
  EXPECT_DOUBLE_EQ(o.fraction, 12.0 / 64.0);
}

TEST(Occupancy, SeedConfigurationThroughNvcc) {
  // 128 registers: exactly 4096 per warp, 4 warps per sub-partition: 4 blocks.
  EXPECT_EQ(h200(128, 128, 24832).blocks_per_sm, 4);
}

TEST(Occupancy, SharedMemoryLimited) {
  // 100000 + 1024 reserved = 101024 -> 101120 allocated; 233472 / 101120 = 2.
  const Occupancy o = h200(256, 64, 100000);
  EXPECT_EQ(o.blocks_per_sm, 2);
  EXPECT_EQ(o.limiter, OccupancyLimiter::shared_memory);
}

TEST(Occupancy, LargestBlockSharedMemoryStillFits) {
  EXPECT_EQ(h200(128, 64, 227 * 1024).blocks_per_sm, 1);
  const Occupancy o = h200(128, 64, 227 * 1024 + 1);
  EXPECT_EQ(o.blocks_per_sm, 0);
  EXPECT_EQ(o.limiter, OccupancyLimiter::shared_memory);
}

TEST(Occupancy, SubPartitionGranularity) {
  // 3 warps of 255 registers: 8192 per warp, 2 warps per sub-partition, 8 per SM: 2 blocks.
  EXPECT_EQ(h200(96, 255, 0).blocks_per_sm, 2);
  EXPECT_EQ(h200(96, 256, 0).blocks_per_sm, 0);  // over the per-thread limit
}

TEST(Occupancy, PerBlockRegisterLimit) {
  EXPECT_EQ(h200(1024, 64, 0).blocks_per_sm, 1);  // 32 x 2048 = 65536: exactly fits
  EXPECT_EQ(h200(1024, 65, 0).blocks_per_sm, 0);  // 32 x 2304 > 65536
}

TEST(Occupancy, ThreadAndBlockLimits) {
  const Occupancy t = h200(1024, 32, 0);
  EXPECT_EQ(t.blocks_per_sm, 2);
  EXPECT_EQ(t.limiter, OccupancyLimiter::threads);
  const Occupancy b = h200(32, 16, 0);
  EXPECT_EQ(b.blocks_per_sm, 32);
  EXPECT_EQ(b.limiter, OccupancyLimiter::blocks);
}

TEST(Occupancy, OtherArchitecturesUseTheirOwnLimits) {
  // sm_86: 48 warps, 16 blocks, 100 KB of shared memory per SM.
  const Occupancy o =
      predict_occupancy(sm_limits_for_arch("sm_86"), KernelResources{128, 64, 0, 0});
  EXPECT_EQ(o.blocks_per_sm, 8);  // 64 registers: 8 warps per sub-partition, 32 per SM
  EXPECT_DOUBLE_EQ(o.fraction, 32.0 / 48.0);
  EXPECT_EQ(predict_occupancy(sm_limits_for_arch("sm_86"), KernelResources{128, 32, 0, 60000}).blocks_per_sm, 1);
}

TEST(SmLimits, UnknownArchitectureIsRefusedWithTheList) {
  try {
    sm_limits_for_arch("sm_91");
    FAIL();
  } catch (const std::exception &e) {
    EXPECT_NE(std::string(e.what()).find("unknown architecture 'sm_91'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("sm_90"), std::string::npos);
  }
}

}  // namespace
}  // namespace sgemm_tune
