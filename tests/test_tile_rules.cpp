#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tuner/space/tile.h"

namespace sgemm_tune {
namespace {

using sgemm_tune_kernels::check_tile;
using sgemm_tune_kernels::shape_fits_tile;

TEST(TileRules, TheSeedConfigurationIsValid) {
  const SgemmTile seed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
  EXPECT_EQ(check_tile(seed), TileRule::ok);
  EXPECT_EQ(sgemm_tune_kernels::tile_threads(seed), 128);
  EXPECT_EQ(sgemm_tune_kernels::tile_warp_m_iterations(seed), 2);
  // A: 16 K rows of 128 floats, the 3 groups of 4 after the first shifted by 8 floats each.
  EXPECT_EQ(sgemm_tune_kernels::tile_a_stage_floats(seed), 16 * 128 + 3 * 8);
  EXPECT_EQ(sgemm_tune_kernels::tile_smem_bytes(seed), 2 * (16 * 128 + 3 * 8 + 16 * 64) * 4);
  // 64 accumulators, 8 + 8 fragment floats, 4 float4 A-prefetch registers (16 floats).
  EXPECT_EQ(sgemm_tune_kernels::tile_live_floats(seed), 64 + 8 + 8 + 16);
  // Register double-buffering keeps two sets of fragments.
  SgemmTile prefetch = seed;
  prefetch.PREFETCH = 1;
  EXPECT_EQ(sgemm_tune_kernels::tile_live_floats(prefetch), 64 + 2 * (8 + 8) + 16);
}

// The transposed A layout: every (row, k) in its own place inside the stage, every K row
// 16-byte aligned (a thread's TM A values are TM / 4 vector loads), and each store
// instruction of the kernel's transposing copy (lane l holds row l / (BK / 4) and
// K indices 4 * (l % (BK / 4)) + j) hitting 32 different banks.
TEST(TileRules, TheALayoutIsAlignedAndItsStoresAreConflictFree) {
  for (int bk : {4, 8, 16, 32}) {
    for (int bm : {32, 64, 128, 256}) {
      SCOPED_TRACE("BK " + std::to_string(bk) + ", BM " + std::to_string(bm));
      const SgemmTile t{bm, 64, bk, 32, 64, 1, 4, 4, 2, 0, 0};
      const int stage = sgemm_tune_kernels::tile_a_stage_floats(t);
      EXPECT_LE(stage, bk * (bm + (32 / bk) % 8)) << "larger than the seed's padded layout";
      EXPECT_EQ(stage % 4, 0);
      std::vector<int> owner(stage, -1);
      for (int k = 0; k < bk; ++k) {
        EXPECT_EQ(sgemm_tune_kernels::tile_a_offset(t, k, 0) % 4, 0) << "K row " << k << " is not 16-byte aligned";
        for (int row = 0; row < bm; ++row) {
          const int at = sgemm_tune_kernels::tile_a_offset(t, k, row);
          ASSERT_GE(at, 0);
          ASSERT_LT(at, stage);
          EXPECT_EQ(owner[at], -1) << "(" << row << ", " << k << ") overlaps another element";
          owner[at] = k * bm + row;
        }
      }
      const int groups = bk / 4;
      for (int j = 0; j < 4; ++j) {
        std::set<int> banks;
        for (int lane = 0; lane < 32; ++lane)
          banks.insert(sgemm_tune_kernels::tile_a_offset(t, 4 * (lane % groups) + j, lane / groups) % 32);
        EXPECT_EQ(banks.size(), 32u) << "store of element " << j << " conflicts";
      }
    }
  }
}

TEST(TileRules, EachRuleIsEnforced) {
  const SgemmTile seed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
  auto with = [&](auto change) {
    SgemmTile t = seed;
    change(t);
    return check_tile(t);
  };
  EXPECT_EQ(with([](SgemmTile &t) { t.TM = 0; }), TileRule::non_positive);
  EXPECT_EQ(with([](SgemmTile &t) { t.PREFETCH = 2; }), TileRule::switch_value);
  EXPECT_EQ(with([](SgemmTile &t) { t.STREAMK = -1; }), TileRule::switch_value);
  EXPECT_EQ(with([](SgemmTile &t) { t.PREFETCH = 1; t.STREAMK = 1; }), TileRule::ok);
  EXPECT_EQ(with([](SgemmTile &t) { t.STAGES = 1; }), TileRule::too_few_stages);
  EXPECT_EQ(with([](SgemmTile &t) { t.WM = 48; }), TileRule::warp_tile_split);
  EXPECT_EQ(with([](SgemmTile &t) { t.BM = 4096; t.BN = 256; }), TileRule::thread_count);
  EXPECT_EQ(with([](SgemmTile &t) { t.WM = 32; t.WN = 32; t.WNITER = 4; t.TM = 8; t.TN = 8; }),
            TileRule::warp_iterations);
  // 64x32 warp tile, WNITER 4: sub-tiles 8 wide cannot hold a thread tile 16 wide.
  EXPECT_EQ(with([](SgemmTile &t) { t.WNITER = 4; t.TN = 16; t.TM = 1; }), TileRule::warp_subtile);
  EXPECT_EQ(with([](SgemmTile &t) { t.BK = 6; }), TileRule::vector_width);
  EXPECT_EQ(with([](SgemmTile &t) { t.TN = 2; t.TM = 8; }), TileRule::vector_width);
  // 128 threads load a 64-wide B row as 16 float4: 8 rows a pass, but BK = 4 has only 4.
  EXPECT_EQ(with([](SgemmTile &t) { t.BK = 4; }), TileRule::b_load_mapping);
  // 256 threads, BK 8: 2 float4 per A row, 128 rows a pass; BM 64 has fewer rows.
  EXPECT_EQ(check_tile(SgemmTile{64, 256, 8, 32, 64, 2, 4, 4, 2, 0, 0}), TileRule::a_load_mapping);
}

TEST(TileRules, ShapeMustDivideIntoTiles) {
  const SgemmTile seed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
  EXPECT_TRUE(shape_fits_tile(seed, 4096, 4096, 4096));
  EXPECT_FALSE(shape_fits_tile(seed, 4096 + 64, 4096, 4096));
  EXPECT_FALSE(shape_fits_tile(seed, 4096, 4096 + 32, 4096));
  EXPECT_FALSE(shape_fits_tile(seed, 4096, 4096, 4096 + 8));
  EXPECT_FALSE(shape_fits_tile(seed, 0, 4096, 4096));
}

TEST(TileRules, CodesAreStableAndDistinct) {
  EXPECT_EQ(tile_rule_code(TileRule::a_load_mapping), "a_load_mapping");
  EXPECT_NE(tile_rule_code(TileRule::warp_subtile), tile_rule_code(TileRule::warp_iterations));
  EXPECT_STRNE(sgemm_tune_kernels::tile_rule_text(TileRule::thread_count), "unknown rule");
}

}  // namespace
}  // namespace sgemm_tune
