// The stream-K schedule (sgemm_tile_rules.h) is what makes a STREAMK kernel correct: every
// (tile, K slice) computed by exactly one block, every split tile prepared exactly once
// and accumulated into atomically, every other tile stored once. Checked here by running
// the schedule of every block for many problem sizes, without a GPU.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "tuner/space/tile.h"

namespace sgemm_tune {
namespace {

using sgemm_tune_kernels::stream_k_cursor;
using sgemm_tune_kernels::stream_k_prepared_tile;

struct Coverage {
  std::vector<std::vector<int>> slice_owners;  // per tile, per slice: how many blocks computed it
  std::vector<int> pieces;                     // per tile: how many pieces it was cut into
  std::vector<int> partial_pieces;             // per tile: pieces that did not cover it whole
  std::vector<int> prepared;                   // per tile: how many prepare blocks named it
};

Coverage run_schedule(long long tiles, int slices, int G) {
  Coverage c;
  c.slice_owners.assign(tiles, std::vector<int>(slices, 0));
  c.pieces.assign(tiles, 0);
  c.partial_pieces.assign(tiles, 0);
  c.prepared.assign(tiles, 0);
  for (int b = 0; b < G; ++b) {
    auto cursor = stream_k_cursor(b, tiles, slices, G);
    long long t = 0;
    int begin = 0, end = 0;
    while (cursor.next(t, begin, end)) {
      EXPECT_GE(t, 0);
      EXPECT_LT(t, tiles);
      EXPECT_LT(begin, end);
      for (int s = begin; s < end; ++s) ++c.slice_owners[t][s];
      ++c.pieces[t];
      if (!(begin == 0 && end == slices)) ++c.partial_pieces[t];
    }
    const long long p = stream_k_prepared_tile(b, tiles, slices, G);
    if (p >= 0) {
      EXPECT_LT(p, tiles);
      ++c.prepared[p];
    }
  }
  return c;
}

TEST(StreamK, EverySliceOnceEverySplitTilePreparedOnce) {
  for (long long tiles : {1LL, 5LL, 64LL, 116LL, 128LL, 131LL, 132LL, 133LL, 256LL, 512LL, 1000LL}) {
    for (int slices : {1, 2, 7, 32, 128}) {
      for (int G : {1, 2, 3, 131, 132, 264}) {
        SCOPED_TRACE("tiles " + std::to_string(tiles) + ", slices " + std::to_string(slices) + ", G " +
                     std::to_string(G));
        const Coverage c = run_schedule(tiles, slices, G);
        for (long long t = 0; t < tiles; ++t) {
          for (int s = 0; s < slices; ++s) ASSERT_EQ(c.slice_owners[t][s], 1) << "tile " << t << " slice " << s;
          // A tile is either stored whole by one block or split and then prepared once and
          // only ever accumulated into.
          if (c.pieces[t] == 1) {
            EXPECT_EQ(c.partial_pieces[t], 0) << "tile " << t;
            EXPECT_EQ(c.prepared[t], 0) << "tile " << t;
          } else {
            EXPECT_EQ(c.partial_pieces[t], c.pieces[t]) << "tile " << t;
            EXPECT_EQ(c.prepared[t], 1) << "tile " << t;
          }
        }
      }
    }
  }
}

TEST(StreamK, WorkIsBalancedAcrossBlocks) {
  // 4096^3 with 128 x 256 tiles and BK = 32 on 132 SMs: 512 tiles of 128 slices.
  const long long tiles = 512;
  const int slices = 128, G = 132;
  long long most = 0, least = 1LL << 60;
  for (int b = 0; b < G; ++b) {
    auto cursor = stream_k_cursor(b, tiles, slices, G);
    long long t = 0, work = 0;
    int begin = 0, end = 0;
    while (cursor.next(t, begin, end)) work += end - begin;
    most = std::max(most, work);
    least = std::min(least, work);
  }
  // 65536 slices over 132 blocks: 496 or 497 each, where one block per tile would give
  // some blocks 4 tiles (512 slices) and others 3.
  EXPECT_EQ(least, 496);
  EXPECT_EQ(most, 497);
}

TEST(StreamK, LaunchPlan) {
  SgemmTile t{128, 256, 32, 128, 32, 1, 8, 8, 2, 0, 0};
  auto plan = sgemm_tune_kernels::tile_launch_plan(t, 4096, 4096, 132);
  EXPECT_FALSE(plan.prepare);
  EXPECT_EQ(plan.grid_x, 16u);
  EXPECT_EQ(plan.grid_y, 32u);

  t.STREAMK = 1;
  plan = sgemm_tune_kernels::tile_launch_plan(t, 4096, 4096, 132);
  EXPECT_TRUE(plan.prepare);  // 512 tiles are not whole waves of 132
  EXPECT_EQ(plan.grid_x, 132u);
  EXPECT_EQ(plan.grid_y, 1u);
  EXPECT_EQ(plan.prepare_grid_x, 132u);

  plan = sgemm_tune_kernels::tile_launch_plan(t, 4096, 4096, 128);
  EXPECT_FALSE(plan.prepare);  // 4 whole waves: nothing is split
  EXPECT_EQ(plan.grid_x, 128u);

  // Never a 2-D grid for a stream-K kernel, which would compute each share once per row.
  plan = sgemm_tune_kernels::tile_launch_plan(t, 4096, 4096, 0);
  EXPECT_EQ(plan.grid_x, 1u);
  EXPECT_EQ(plan.grid_y, 1u);
}

}  // namespace
}  // namespace sgemm_tune
