// The stream-K schedule (sgemm_tile_rules.h) is what makes a STREAMK kernel correct: every
// (tile, K slice) computed by exactly one block, every split tile prepared exactly once
// and accumulated into atomically, every other tile stored once. Checked here by running
// the schedule of every block for many problem sizes, without a GPU.
#include <gtest/gtest.h>

#include <map>
#include <string>
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

// The edge kernel's tail split (tile_edges_tail_split, tail_split_piece): every block of
// its grid run as the kernel runs it, every (tile, K slice) computed exactly once, only the
// tiles past whole waves split (each scaled by exactly one block of the scale pass, and
// added into, never stored), and the last wave as full as the slots allow.
TEST(TailSplit, EverySliceOnceOnlyTheLastWaveSplit) {
  using sgemm_tune_kernels::split_k_range;
  using sgemm_tune_kernels::tail_split_piece;
  using sgemm_tune_kernels::tile_edges_tail_split;
  const SgemmTile t{64, 128, 32, 32, 64, 2, 8, 4, 2, 0, 1};  // 64 x 128 tiles, 32 K slices at K 1000
  for (long long M : {1LL, 64LL, 1000LL, 1164LL, 4096LL})
    for (long long N : {1LL, 100LL, 1102LL, 4096LL})
      for (long long K : {1LL, 33LL, 1000LL, 4100LL})
        for (long long slots : {1LL, 2LL, 131LL, 132LL, 396LL}) {
          SCOPED_TRACE(std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) + " on " +
                       std::to_string(slots) + " slots");
          const auto plan = tile_edges_tail_split(t, M, N, K, slots);
          const long long tiles = ((M + 63) / 64) * ((N + 127) / 128), slices = (K + 31) / 32;
          ASSERT_EQ(plan.whole + plan.rest, tiles);
          ASSERT_GE(plan.parts, 1);
          ASSERT_LE(plan.parts, sgemm_tune_kernels::kMaxSplitK);
          ASSERT_LE(plan.parts, slices);
          ASSERT_EQ(plan.grid_x, static_cast<unsigned>(plan.whole + plan.rest * plan.parts));
          if (plan.parts == 1) {
            ASSERT_EQ(plan.rest, 0);
          } else {
            EXPECT_EQ(plan.whole % slots, 0);              // whole waves run whole
            EXPECT_LE(plan.rest * plan.parts, slots);      // the split wave is one wave
            // As many parts as fit: one more would pass the slots, a part per slice or the
            // largest split.
            EXPECT_TRUE(plan.rest * (plan.parts + 1) > slots || plan.parts == slices ||
                        plan.parts == sgemm_tune_kernels::kMaxSplitK);
          }
          std::vector<std::vector<int>> owners(static_cast<std::size_t>(tiles), std::vector<int>(slices, 0));
          std::vector<int> split(static_cast<std::size_t>(tiles), 0), scaled(static_cast<std::size_t>(tiles), 0);
          for (long long b = 0; b < plan.grid_x; ++b) {
            const auto piece = tail_split_piece(tiles, plan.grid_x, plan.parts, b);
            ASSERT_GE(piece.tile, 0);
            ASSERT_LT(piece.tile, tiles);
            const auto r = piece.part < 0 ? split_k_range(t, static_cast<int>(K), 1, 0)
                                          : split_k_range(t, static_cast<int>(K), plan.parts, piece.part);
            if (piece.part >= 0) ++split[static_cast<std::size_t>(piece.tile)];
            for (int s = r.begin; s < r.end; ++s) ++owners[static_cast<std::size_t>(piece.tile)][s];
          }
          for (long long b = 0; b < plan.rest; ++b) ++scaled[static_cast<std::size_t>(tiles - plan.rest + b)];
          for (long long tile = 0; tile < tiles; ++tile) {
            for (long long s = 0; s < slices; ++s) ASSERT_EQ(owners[tile][s], 1) << "tile " << tile << " slice " << s;
            const bool is_split = tile >= plan.whole;
            EXPECT_EQ(split[tile], is_split ? plan.parts : 0) << "tile " << tile;
            EXPECT_EQ(scaled[tile], is_split ? 1 : 0) << "tile " << tile;
          }
        }
  // Beyond a 1-D grid: grid_x 0, which the launch refuses.
  EXPECT_EQ(tile_edges_tail_split(t, 64LL * 65535, 128LL * 65535, 32, 132).grid_x, 0u);
}

}  // namespace
}  // namespace sgemm_tune
