// The compile pool through real NVRTC for sm_90: every tile given comes back exactly once,
// compiled or with the error that stopped it.
#include <algorithm>
#include <chrono>
#include <set>

#include <gtest/gtest.h>

#include "test_paths.h"

#include "tuner/pipeline/compile_pool.h"
#include "tuner/pipeline/wakeup.h"
#include "tuner/space/enumerate.h"

namespace sgemm_tune {
namespace {

CompileOptions sm90() {
  CompileOptions o;
  o.arch = "sm_90";
  return o;
}

std::vector<SgemmTile> small_space_tiles(std::size_t n) {
  std::vector<SgemmTile> tiles =
      enumerate_candidates(load_search_space(testing::source_dir() + "/tests/data/small.json")).candidates;
  tiles.resize(std::min(n, tiles.size()));
  return tiles;
}

TEST(CompilePool, ReturnsEveryTileExactlyOnce) {
  std::vector<SgemmTile> tiles = small_space_tiles(3);
  ASSERT_EQ(tiles.size(), 3u);
  SgemmTile broken = tiles[0];
  broken.WM = 48;  // does not divide BM: the kernel's static_assert stops it
  tiles.push_back(broken);

  CompilePool pool(KernelSource::embedded(), sm90(), tiles, 2);
  std::multiset<std::size_t> seen;  // positions in `tiles` (all distinct) of what came back
  while (auto outcome = pool.next()) {
    const auto at = std::find(tiles.begin(), tiles.end(), outcome->tile);
    ASSERT_NE(at, tiles.end());
    seen.insert(static_cast<std::size_t>(at - tiles.begin()));
    EXPECT_GT(outcome->seconds, 0);
    if (outcome->tile == broken) {
      EXPECT_FALSE(outcome->kernel);
      EXPECT_FALSE(outcome->error.empty());
      EXPECT_NE(outcome->log.find("error"), std::string::npos) << outcome->log;
      continue;
    }
    ASSERT_TRUE(outcome->kernel) << outcome->error;
    EXPECT_EQ(outcome->kernel->tile, outcome->tile);
    EXPECT_EQ(outcome->kernel->cubin.substr(0, 4), std::string("\x7f" "ELF"));
  }
  EXPECT_EQ(seen, (std::multiset<std::size_t>{0, 1, 2, 3}));
  EXPECT_FALSE(pool.next()) << "nothing more once every tile has come back";
}

TEST(CompilePool, NothingToCompileEndsAtOnce) {
  CompilePool pool(KernelSource::embedded(), sm90(), {}, 4);
  EXPECT_TRUE(pool.exhausted());
  EXPECT_FALSE(pool.try_next());
  EXPECT_FALSE(pool.next());
}

TEST(CompilePool, ACallerThatWaitsForOtherThingsTooIsWokenForEachOutcome) {
  // The tuning's main thread waits for compiled and measured candidates alike (wakeup.h).
  const auto tiles = small_space_tiles(2);
  Wakeup wakeup;
  CompilePool pool(KernelSource::embedded(), sm90(), tiles, 2, KernelVariant::exact, [&] { wakeup.notify(); });
  std::size_t taken = 0;
  const auto start = std::chrono::steady_clock::now();
  while (!pool.exhausted()) {
    const std::uint64_t seen = wakeup.count();
    if (pool.try_next()) {
      ++taken;
      continue;
    }
    ASSERT_LT(std::chrono::steady_clock::now() - start, std::chrono::minutes(5));
    wakeup.wait(seen, std::chrono::minutes(1));
  }
  EXPECT_EQ(taken, tiles.size());
  EXPECT_EQ(wakeup.count(), tiles.size());
  EXPECT_FALSE(pool.try_next());
}

TEST(CompilePool, DestroyedWithWorkLeftReturns) {
  // An interrupted run drops the pool with work left: it must finish what is in hand and
  // return, not compile the rest.
  const auto tiles = small_space_tiles(3);
  CompilePool pool(KernelSource::embedded(), sm90(), tiles, 1);
  ASSERT_TRUE(pool.next());
}

}  // namespace
}  // namespace sgemm_tune
