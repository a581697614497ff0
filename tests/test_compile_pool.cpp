// The compile pool through real NVRTC for sm_90: every tile given comes back exactly once,
// compiled or with the error that stopped it.
#include <algorithm>
#include <chrono>
#include <set>

#include <gtest/gtest.h>

#include "broken_edge_kernel.h"
#include "sgemm_launch.h"
#include "test_paths.h"

#include "tuner/pipeline/compile_pool.h"
#include "tuner/pipeline/judge.h"
#include "tuner/pipeline/wakeup.h"
#include "tuner/prune/sm_limits.h"
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

// A run with BLAS shapes compiles each tile's edge kernels that run them beside its fast
// kernel, each in a program of its own, with only the bodies those shapes run.
TEST(CompilePool, BlasShapesBringTheEdgeKernelBodiesThatRunThem) {
  const auto tiles = small_space_tiles(1);
  ASSERT_EQ(tiles.size(), 1u);
  const SgemmTile tile = tiles[0];
  using sgemm_tune_kernels::kEdgeBodyNarrow;
  using sgemm_tune_kernels::kEdgeBodyPlain;
  using sgemm_tune_kernels::kEdgeBodyTransposedA;
  const EdgeBodies plain = edge_body_bit(kEdgeBodyPlain), transposed_a = edge_body_bit(kEdgeBodyTransposedA),
                   narrow = edge_body_bit(kEdgeBodyNarrow);
  // 1024^3 NN: the fast kernel; TN: the edge kernel's transposed-A body; NT: the kernel of
  // any operands' plain body; 1000^3 NN: the edge kernel's plain body; 1001x1000x999 NN (A's
  // rows 999 floats apart, not 16-byte aligned): its narrow body.
  EXPECT_TRUE(companions_for(tile, {parse_shape("1024x1024x1024"), parse_shape("1024x1024x1024:NN")}).empty());
  EXPECT_EQ(companions_for(tile, {parse_shape("1024x1024x1024:TN")}),
            (std::vector<CompanionRequest>{{KernelVariant::edges, transposed_a}}));
  const std::vector<Shape> shapes = {parse_shape("1024x1024x1024:NT"), parse_shape("1000x1000x1000:NN"),
                                     parse_shape("1001x1000x999:NN")};
  EXPECT_EQ(companions_for(tile, shapes), (std::vector<CompanionRequest>{{KernelVariant::edges, plain | narrow},
                                                                         {KernelVariant::any, plain}}));
  // A resumed run measures only the shapes not recorded before: the kernels and bodies that
  // run only recorded ones are not compiled again.
  const auto recorded = [](const std::string &which) {
    return [which](const Shape &s) { return s.to_string() == which; };
  };
  EXPECT_EQ(companions_for(tile, shapes, recorded("1000x1000x1000:NN")),
            (std::vector<CompanionRequest>{{KernelVariant::edges, narrow}, {KernelVariant::any, plain}}));
  EXPECT_EQ(companions_for(tile, shapes, recorded("1024x1024x1024:NT")),
            (std::vector<CompanionRequest>{{KernelVariant::edges, plain | narrow}}));
  EXPECT_TRUE(companions_for(tile, shapes, [](const Shape &) { return true; }).empty());

  // The narrow body alone: the plain body's symbol is still the one from which the others
  // are named, and its kernel is not in the cubin.
  const std::vector<Shape> narrow_only = {shapes[0], shapes[2]};
  CompilePool pool(KernelSource::embedded(), sm90(), tiles, 1, KernelVariant::exact, {},
                   [&](const SgemmTile &t) { return companions_for(t, narrow_only); });
  const auto outcome = pool.next();
  ASSERT_TRUE(outcome && outcome->kernel) << (outcome ? outcome->error : "no outcome");
  const CompiledKernel &k = *outcome->kernel;
  EXPECT_NE(k.lowered_name.find("sgemm_double_buffered"), std::string::npos);
  ASSERT_EQ(k.companions.size(), 2u);
  const CompanionKernel &edges = k.companions[0], &any = k.companions[1];
  EXPECT_EQ(edges.variant, KernelVariant::edges);
  EXPECT_EQ(edges.bodies, narrow);
  EXPECT_EQ(any.variant, KernelVariant::any);
  EXPECT_EQ(any.bodies, plain);
  char symbol[512];
  ASSERT_TRUE(sgemm_tune_kernels::edge_body_symbol(edges.lowered_name.c_str(), kEdgeBodyNarrow, symbol, sizeof symbol))
      << edges.lowered_name;
  EXPECT_NE(edges.cubin.find(symbol), std::string::npos) << "the narrow body's kernel is in its cubin";
  EXPECT_EQ(edges.cubin.find(edges.lowered_name + '\0'), std::string::npos) << "the plain body's is not";
  EXPECT_NE(any.cubin.find(any.lowered_name), std::string::npos);
  EXPECT_NE(any.lowered_name.find("sgemm_double_buffered_any"), std::string::npos);
  for (const CompanionKernel &c : k.companions) {
    EXPECT_EQ(c.cubin.substr(0, 4), std::string("\x7f" "ELF"));
    EXPECT_NE(c.cubin, k.cubin);
  }
  // Each compiled body's resources, and none for the others: a shape's row records those of
  // the body that runs it, whatever else the run compiled.
  for (int body = 0; body < sgemm_tune_kernels::kEdgeBodies; ++body) {
    EXPECT_EQ(edges.body_usage[body].registers > 0, body == kEdgeBodyNarrow) << body;
    EXPECT_EQ(any.body_usage[body].registers > 0, body == kEdgeBodyPlain) << body;
  }
  const CompiledJudgement j = judge_compiled(k, outcome->seconds, narrow_only, PruneSettings{},
                                             sm_limits_for_arch("sm_90"), [](const Shape &) { return false; });
  ASSERT_EQ(j.rows.size(), 2u);
  EXPECT_EQ(j.rows[0].registers, any.body_usage[kEdgeBodyPlain].registers);
  EXPECT_EQ(j.rows[1].registers, edges.body_usage[kEdgeBodyNarrow].registers);
}

// With two bodies of the edge kernel compiled, each shape's row records the registers of the
// body that runs it, not the more of the two.
TEST(CompilePool, EachBlasShapesRowRecordsItsOwnBodysRegisters) {
  const auto tiles = small_space_tiles(1);
  ASSERT_EQ(tiles.size(), 1u);
  const std::vector<Shape> shapes = {parse_shape("1000x1000x1000:NN"), parse_shape("1001x1000x999:NN")};
  CompilePool pool(KernelSource::embedded(), sm90(), tiles, 1, KernelVariant::exact, {},
                   [&](const SgemmTile &t) { return companions_for(t, shapes); });
  const auto outcome = pool.next();
  ASSERT_TRUE(outcome && outcome->kernel) << (outcome ? outcome->error : "no outcome");
  const CompiledKernel &k = *outcome->kernel;
  ASSERT_EQ(k.companions.size(), 1u);
  const auto &usage = k.companions[0].body_usage;
  const int plain = usage[sgemm_tune_kernels::kEdgeBodyPlain].registers,
            narrow = usage[sgemm_tune_kernels::kEdgeBodyNarrow].registers;
  ASSERT_NE(plain, narrow) << "this test needs a tile whose two bodies differ in registers";
  const CompiledJudgement j = judge_compiled(k, outcome->seconds, shapes, PruneSettings{}, sm_limits_for_arch("sm_90"),
                                             [](const Shape &) { return false; });
  ASSERT_EQ(j.rows.size(), 2u);
  EXPECT_EQ(j.rows[0].registers, plain);
  EXPECT_EQ(j.rows[1].registers, narrow);
}

// The plain body's symbol from any body's, as edge_body_symbol derives each body's from it.
TEST(CompilePool, PlainBodySymbolInvertsEdgeBodySymbol) {
  const std::string plain_edges = "_ZN18sgemm_tune_kernels27sgemm_double_buffered_edgesILi64ELi128ELi32EEEviiif";
  const std::string plain_any = "_ZN18sgemm_tune_kernels25sgemm_double_buffered_anyILi64ELi128ELi32EEEviiif";
  for (const std::string &plain : {plain_edges, plain_any})
    for (int body = 0; body < sgemm_tune_kernels::kEdgeBodies; ++body) {
      char symbol[512];
      ASSERT_TRUE(sgemm_tune_kernels::edge_body_symbol(plain.c_str(), body, symbol, sizeof symbol));
      EXPECT_EQ(plain_body_symbol(symbol, body), plain) << symbol;
    }
  EXPECT_EQ(plain_body_symbol("_ZN18sgemm_tune_kernels21sgemm_double_bufferedILi64EEEv", 0), "");
  EXPECT_EQ(plain_body_symbol(plain_edges, 2), "") << "the plain body's name is not the narrow one's";
  EXPECT_EQ(plain_body_symbol(plain_edges, 7), "");
}

// An edge kernel that fails to compile fails the shapes it would run, not the tile: the
// fast kernel and the kernel of any operands still run theirs.
TEST(CompilePool, ACompanionThatFailsToCompileFailsOnlyTheShapesItRuns) {
  const auto tiles = small_space_tiles(1);
  ASSERT_EQ(tiles.size(), 1u);
  const SgemmTile tile = tiles[0];
  // The fast kernel, the edge kernel (1000^3 NN) and the kernel of any operands (NT).
  const std::vector<Shape> shapes = {parse_shape("1024x1024x1024"), parse_shape("1000x1000x1000:NN"),
                                     parse_shape("1024x1024x1024:NT")};
  CompilePool pool(testing::with_broken_edge_kernel(), sm90(), tiles, 1, KernelVariant::exact, {},
                   [&](const SgemmTile &t) { return companions_for(t, shapes); });
  const auto outcome = pool.next();
  ASSERT_TRUE(outcome && outcome->kernel) << (outcome ? outcome->error : "no outcome");
  const CompiledKernel &k = *outcome->kernel;
  ASSERT_EQ(k.companions.size(), 1u);
  EXPECT_EQ(k.companions[0].variant, KernelVariant::any);
  ASSERT_EQ(k.companion_failures.size(), 1u);
  EXPECT_EQ(k.companion_failures[0].variant, KernelVariant::edges);
  EXPECT_NE(k.companion_failures[0].error.find("sgemm_double_buffered_edges"), std::string::npos)
      << k.companion_failures[0].error;
  EXPECT_NE(k.companion_failures[0].log.find("this edge kernel does not compile"), std::string::npos)
      << k.companion_failures[0].log;

  const CompiledJudgement j = judge_compiled(k, outcome->seconds, shapes, PruneSettings{}, sm_limits_for_arch("sm_90"),
                                             [](const Shape &) { return false; });
  ASSERT_EQ(j.rows.size(), 3u);
  EXPECT_EQ(j.rows[0].shape, shapes[0]);
  EXPECT_NE(j.rows[0].status, CandidateStatus::compile_failed);
  EXPECT_EQ(j.rows[1].shape, shapes[1]);
  EXPECT_EQ(j.rows[1].status, CandidateStatus::compile_failed);
  EXPECT_EQ(j.rows[1].reason, "nvrtc");
  EXPECT_NE(j.rows[1].detail.find("this edge kernel does not compile"), std::string::npos) << j.rows[1].detail;
  EXPECT_GT(j.rows[1].compile_seconds, 0);
  EXPECT_EQ(j.rows[2].shape, shapes[2]);
  EXPECT_NE(j.rows[2].status, CandidateStatus::compile_failed);
  EXPECT_EQ(j.rows[2].registers, k.companions[0].body_usage[sgemm_tune_kernels::kEdgeBodyPlain].registers)
      << "the kernel of any operands' plain body runs NT";
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
