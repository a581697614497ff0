// The search strategies on made-up timings: what each proposes, in what order, and that
// nothing outside the survivors is ever proposed.
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "tuner/search/exhaustive_search.h"
#include "tuner/search/proposal_ledger.h"
#include "tuner/search/staged_search.h"

namespace sgemm_tune {
namespace {

constexpr std::size_t kBK = 2, kStages = 8;  // parameter indices

SgemmTile tile(int bn, int bk, int stages) { return SgemmTile{128, bn, bk, 64, 32, 2, 4, 4, stages, 0, 0}; }

// BN x BK x STAGES: four structures (BN), each with four probe variants (BK, STAGES).
std::vector<SgemmTile> survivors() {
  std::vector<SgemmTile> out;
  for (int bn : {32, 64, 128, 256})
    for (int bk : {8, 16})
      for (int stages : {2, 3}) out.push_back(tile(bn, bk, stages));
  return out;
}

// Two plain shapes: the first stage times every shape.
const std::vector<Shape> kTwoShapes = {parse_shape("1024x1024x1024"), parse_shape("4096x4096x4096")};

StrategySettings probe_bk16_stages2(int finalists) {
  StrategySettings s;
  s.kind = StrategySettings::Kind::staged;
  s.probe = {{kBK, 16}, {kStages, 2}};
  s.finalists = finalists;
  return s;
}

// Times of the tiles in `batch` at two shapes, `percent[BN]` of cuBLAS at both.
SearchHistory timed(SearchHistory h, const std::vector<SgemmTile> &batch, const std::map<int, double> &percent) {
  h.shape_count = 2;
  for (std::size_t shape = 0; shape < 2; ++shape)
    for (const SgemmTile &t : batch) h.timed.push_back(TimedResult{t, shape, 100.0 / percent.at(t.BN), percent.at(t.BN)});
  return h;
}

void expect_only_survivors(const std::vector<SgemmTile> &proposed, const std::vector<SgemmTile> &all) {
  const std::set<SgemmTile> allowed(all.begin(), all.end());
  for (const SgemmTile &t : proposed) EXPECT_TRUE(allowed.count(t)) << describe_tile(t);
}

TEST(ExhaustiveSearch, ProposesEverySurvivorOnceInEnumerationOrder) {
  ExhaustiveSearch search;
  search.start(survivors());
  const SearchBatch batch = search.next(SearchHistory{2, {}, {}});
  EXPECT_EQ(batch.tiles, survivors());
  EXPECT_TRUE(batch.last);
  EXPECT_TRUE(batch.stage.empty());
  EXPECT_TRUE(search.next(timed({}, batch.tiles, {{32, 50}, {64, 90}, {128, 100}, {256, 70}})).tiles.empty());
  EXPECT_TRUE(search.finalists().empty());
  EXPECT_EQ(search.name(), "exhaustive");
}

TEST(ExhaustiveSearch, ProposesNothingWithoutSurvivors) {
  ExhaustiveSearch search;
  search.start({});
  EXPECT_TRUE(search.next(SearchHistory{1, {}, {}}).tiles.empty());
}

TEST(StagedSearch, ProbesFirstThenOnlyTheFinalistsStructures) {
  StagedSearch search(probe_bk16_stages2(2), {}, kTwoShapes);
  search.start(survivors());
  const SearchBatch first = search.next(SearchHistory{2, {}, {}});
  EXPECT_EQ(first.tiles, (std::vector<SgemmTile>{tile(32, 16, 2), tile(64, 16, 2), tile(128, 16, 2), tile(256, 16, 2)}));
  EXPECT_FALSE(first.last);
  EXPECT_EQ(first.stage, "stage 1 of 2");
  EXPECT_TRUE(first.shapes.empty()) << "plain shapes only: every tile at every shape";

  // BN = 128 and BN = 64 are the best two structures.
  const SearchBatch second = search.next(timed({}, first.tiles, {{32, 50}, {64, 90}, {128, 100}, {256, 70}}));
  EXPECT_EQ(second.tiles, (std::vector<SgemmTile>{tile(64, 8, 2), tile(64, 8, 3), tile(64, 16, 3), tile(128, 8, 2),
                                                  tile(128, 8, 3), tile(128, 16, 3)}));
  EXPECT_TRUE(second.last);
  EXPECT_EQ(second.stage, "stage 2 of 2");
  EXPECT_TRUE(second.shapes.empty());
  ASSERT_EQ(search.finalists().size(), 2u);
  EXPECT_EQ(search.finalists()[0].BN, 128);  // best first
  EXPECT_EQ(search.finalists()[1].BN, 64);
  EXPECT_EQ(search.finalists()[0].BK, 0) << "a structure leaves the probed parameters out";
  EXPECT_TRUE(search.next(timed({}, second.tiles, {{64, 90}, {128, 100}})).tiles.empty());
  EXPECT_EQ(search.not_proposed().reason, kPruneNotFinalist);
  EXPECT_NE(search.not_proposed().detail.find("2 best"), std::string::npos);
}

TEST(StagedSearch, RanksEachStructureByItsBestProbeWhereAParameterHasSeveral) {
  // STAGES probed at 2 and 3: BN = 64 runs 120% of cuBLAS with 3 stages and 50% with 2 at
  // the first shape, the other way round at the second; BN = 128 100% with either. By its
  // best probe at each shape BN = 64 leads (120%); by the mean of its probes, or by the
  // probe that is best over both shapes (85% either), it would not.
  StrategySettings settings = probe_bk16_stages2(1);
  settings.probe = {{kBK, 16}, {kStages, 2}, {kStages, 3}};
  StagedSearch search(settings, {}, kTwoShapes);
  search.start(survivors());
  const SearchBatch first = search.next(SearchHistory{2, {}, {}});
  EXPECT_EQ(first.tiles.size(), 8u) << "every structure at BK 16 with 2 and with 3 stages";
  for (const SgemmTile &t : first.tiles) EXPECT_EQ(t.BK, 16);
  SearchHistory h;
  h.shape_count = 2;
  for (std::size_t shape = 0; shape < 2; ++shape)
    for (const SgemmTile &t : first.tiles) {
      const bool wins_here = (t.STAGES == 3) == (shape == 0);
      const double percent = t.BN == 64 ? (wins_here ? 120 : 50) : t.BN == 128 ? 100 : 60;
      h.timed.push_back(TimedResult{t, shape, 100.0 / percent, percent});
    }
  const SearchBatch second = search.next(h);
  ASSERT_EQ(search.finalists().size(), 1u);
  EXPECT_EQ(search.finalists()[0].BN, 64);
  EXPECT_EQ(second.tiles, (std::vector<SgemmTile>{tile(64, 8, 2), tile(64, 8, 3)}))
      << "the finalist's other values of the probed parameters; both probes were timed already";
}

TEST(StagedSearch, TakesReferencesIntoTheFirstStageWithoutScoringThem) {
  // A reference off the probe values: timed in the first stage, but its structure is
  // scored by its probe variant only.
  const SgemmTile reference = tile(32, 8, 3);
  StagedSearch search(probe_bk16_stages2(1), {reference}, kTwoShapes);
  search.start(survivors());
  const SearchBatch first = search.next(SearchHistory{2, {}, {}});
  ASSERT_EQ(first.tiles.size(), 5u);
  EXPECT_EQ(first.tiles[0], reference);  // in enumeration order
  SearchHistory h = timed({}, first.tiles, {{32, 60}, {64, 90}, {128, 100}, {256, 70}});
  for (TimedResult &r : h.timed)
    if (r.tile == reference) r.percent_of_cublas = 500;  // would win, were it scored
  const SearchBatch second = search.next(h);
  ASSERT_EQ(search.finalists().size(), 1u);
  EXPECT_EQ(search.finalists()[0].BN, 128);
  for (const SgemmTile &t : second.tiles) {
    EXPECT_EQ(t.BN, 128);
    EXPECT_NE(t, reference);
  }
}

TEST(StagedSearch, NeverProposesOutsideTheSurvivorsOrTwice) {
  // Survivors with gaps: some probe variants were pruned before the strategy saw them.
  std::vector<SgemmTile> some;
  for (const SgemmTile &t : survivors())
    if (!(t.BN == 64 && t.STAGES == 3) && !(t.BN == 256 && t.BK == 16 && t.STAGES == 2)) some.push_back(t);
  StagedSearch search(probe_bk16_stages2(8), {tile(512, 16, 2)}, kTwoShapes);  // a reference the space does not hold
  search.start(some);
  const SearchBatch first = search.next(SearchHistory{2, {}, {}});
  // 256 has no probe variant among the survivors, so its structure is never scored.
  const SearchBatch second = search.next(timed({}, first.tiles, {{32, 50}, {64, 90}, {128, 100}}));
  expect_only_survivors(first.tiles, some);
  expect_only_survivors(second.tiles, some);
  std::set<SgemmTile> seen;
  for (const auto *batch : {&first, &second})
    for (const SgemmTile &t : batch->tiles) EXPECT_TRUE(seen.insert(t).second) << "twice: " << describe_tile(t);
  for (const SgemmTile &t : second.tiles) EXPECT_NE(t.BN, 256);
  EXPECT_EQ(seen.size(), some.size() - 3);  // all but the three BN = 256 variants left
}

TEST(StagedSearch, EachShapeKeepsItsOwnBestStructures) {
  // BN = 32 is poor on average but the best at shape 1 (a small shape among large ones):
  // with one finalist per shape it goes to the second stage beside the mean's best.
  StrategySettings settings = probe_bk16_stages2(1);
  settings.finalists_per_shape = 1;
  StagedSearch search(settings, {}, kTwoShapes);
  search.start(survivors());
  const SearchBatch first = search.next(SearchHistory{2, {}, {}});
  SearchHistory h;
  h.shape_count = 2;
  const std::map<int, double> shape0{{32, 20}, {64, 90}, {128, 100}, {256, 95}}, shape1{{32, 80}, {64, 50}, {128, 60}, {256, 10}};
  for (const SgemmTile &t : first.tiles) {
    h.timed.push_back(TimedResult{t, 0, 1.0, shape0.at(t.BN)});
    h.timed.push_back(TimedResult{t, 1, 1.0, shape1.at(t.BN)});
  }
  search.next(h);
  ASSERT_EQ(search.finalists().size(), 2u);
  EXPECT_EQ(search.finalists()[0].BN, 128);  // the mean's best (80), then shape 1's best
  EXPECT_EQ(search.finalists()[1].BN, 32);
}

TEST(StagedSearch, EqualScoresAreBrokenByStructureTheSameWayEachTime) {
  StagedSearch a(probe_bk16_stages2(1), {}, kTwoShapes), b(probe_bk16_stages2(1), {}, kTwoShapes);
  a.start(survivors());
  b.start(survivors());
  const SearchHistory h = timed({}, a.next(SearchHistory{2, {}, {}}).tiles, {{32, 80}, {64, 80}, {128, 80}, {256, 80}});
  b.next(SearchHistory{2, {}, {}});
  EXPECT_EQ(a.next(h).tiles, b.next(h).tiles);
  ASSERT_EQ(a.finalists().size(), 1u);
  EXPECT_EQ(a.finalists()[0].BN, 32);  // the smallest structure of the tie
}

// Shape 1 is a BLAS product between two plain shapes.
const std::vector<Shape> kPlainBlasPlain = {parse_shape("1024x1024x1024"), parse_shape("1000x1000x1000:NN"),
                                            parse_shape("4096x4096x4096")};

TEST(StagedSearch, BlasShapesWaitForTheFinalists) {
  const SgemmTile reference = tile(32, 8, 3);
  StagedSearch search(probe_bk16_stages2(2), {reference}, kPlainBlasPlain);
  search.start(survivors());
  const SearchBatch first = search.next(SearchHistory{3, {}, {}});
  ASSERT_EQ(first.tiles, (std::vector<SgemmTile>{reference, tile(32, 16, 2), tile(64, 16, 2), tile(128, 16, 2),
                                                 tile(256, 16, 2)}));
  // The probes at the plain shapes; the reference, the yardstick, at every shape.
  EXPECT_EQ(first.shapes, (std::vector<std::vector<std::size_t>>{{0, 1, 2}, {0, 2}, {0, 2}, {0, 2}, {0, 2}}));

  // Ranked on the plain shapes' probes: the reference's 1000% at the BLAS shape counts for
  // nothing (a reference off the probe values is never scored).
  const std::map<int, double> percent{{32, 50}, {64, 90}, {128, 100}, {256, 70}};
  SearchHistory h;
  h.shape_count = 3;
  for (std::size_t i = 0; i < first.tiles.size(); ++i)
    for (const std::size_t shape : first.shapes[i])
      h.timed.push_back(TimedResult{first.tiles[i], shape, 1.0, shape == 1 ? 1000.0 : percent.at(first.tiles[i].BN)});
  const SearchBatch second = search.next(h);
  ASSERT_EQ(search.finalists().size(), 2u);
  EXPECT_EQ(search.finalists()[0].BN, 128);
  EXPECT_EQ(search.finalists()[1].BN, 64);
  // The finalists' other variants at every shape; their probes back for the BLAS shape.
  EXPECT_EQ(second.tiles, (std::vector<SgemmTile>{tile(64, 8, 2), tile(64, 8, 3), tile(64, 16, 2), tile(64, 16, 3),
                                                  tile(128, 8, 2), tile(128, 8, 3), tile(128, 16, 2),
                                                  tile(128, 16, 3)}));
  const std::vector<std::size_t> all{0, 1, 2}, blas{1};
  EXPECT_EQ(second.shapes, (std::vector<std::vector<std::size_t>>{all, all, blas, all, all, all, blas, all}));
  EXPECT_TRUE(second.last);

  // Every proposal is one a run takes: the non-finalists' probes are left at the BLAS shape.
  ProposalLedger ledger(survivors(), 3);
  ledger.take(first, search.name());
  const auto takes = ledger.take(second, search.name());
  EXPECT_FALSE(takes[2].first);
  EXPECT_TRUE(takes[0].first);
  for (const ProposalLedger::Left &l : ledger.settle()) {
    if (l.tile.BK == 16 && l.tile.STAGES == 2) {
      EXPECT_FALSE(l.never_proposed) << describe_tile(l.tile);
      EXPECT_EQ(l.shapes, (std::vector<bool>{false, true, false})) << describe_tile(l.tile);
    } else {
      EXPECT_TRUE(l.never_proposed) << describe_tile(l.tile);
    }
  }
}

// A reference that is also a probe is timed at the BLAS shape in the first stage, where
// the other probes are not: the ranking leaves that time out.
TEST(StagedSearch, TheRankingLeavesOutTheBlasTimesOfAReferenceThatIsAProbe) {
  StagedSearch search(probe_bk16_stages2(1), {tile(32, 16, 2)}, kPlainBlasPlain);
  search.start(survivors());
  const SearchBatch first = search.next(SearchHistory{3, {}, {}});
  ASSERT_EQ(first.tiles.size(), 4u);
  EXPECT_EQ(first.shapes[0], (std::vector<std::size_t>{0, 1, 2}));  // the reference
  SearchHistory h;
  h.shape_count = 3;
  for (std::size_t i = 0; i < first.tiles.size(); ++i)
    for (const std::size_t shape : first.shapes[i])
      h.timed.push_back(TimedResult{first.tiles[i], shape, 1.0, shape == 1 ? 1000.0 : (first.tiles[i].BN == 128 ? 100.0 : 60.0)});
  search.next(h);
  ASSERT_EQ(search.finalists().size(), 1u);
  EXPECT_EQ(search.finalists()[0].BN, 128) << "the reference's structure would win on its BLAS time";
}

// A probe that tiles none of the plain shapes could not be ranked on them: then every probe
// is timed at every shape, as when the space asks for it.
TEST(StagedSearch, BlasShapesInTheFirstStageWhereAProbeTilesNoPlainShape) {
  const std::vector<Shape> shapes = {parse_shape("1024x64x1024"), parse_shape("1000x1000x1000:NN")};
  StagedSearch search(probe_bk16_stages2(1), {}, shapes);
  search.start(survivors());  // BN = 128 and 256 do not divide 64
  const SearchBatch first = search.next(SearchHistory{2, {}, {}});
  EXPECT_EQ(first.tiles.size(), 4u);
  EXPECT_TRUE(first.shapes.empty()) << "every probe at every shape";
  std::vector<SgemmTile> narrow;
  for (const SgemmTile &t : survivors())
    if (t.BN <= 64) narrow.push_back(t);
  search.start(narrow);  // every probe tiles the plain shape: the BLAS shape waits
  const SearchBatch again = search.next(SearchHistory{2, {}, {}});
  EXPECT_EQ(again.shapes, (std::vector<std::vector<std::size_t>>{{0}, {0}}));

  // A reference that is a probe is ranked on the plain shapes too: one that tiles none
  // sends every shape into the first stage as well.
  narrow.push_back(tile(128, 16, 2));
  StagedSearch with_reference(probe_bk16_stages2(1), {tile(128, 16, 2)}, shapes);
  with_reference.start(narrow);
  EXPECT_TRUE(with_reference.next(SearchHistory{2, {}, {}}).shapes.empty());
}

TEST(StagedSearch, BlasShapesInTheFirstStageWhenAskedOrWhenNothingIsPlain) {
  StrategySettings asked = probe_bk16_stages2(1);
  asked.blas_shapes_in_first_stage = true;
  for (const auto &[settings, shapes] :
       {std::make_pair(asked, kPlainBlasPlain),
        std::make_pair(probe_bk16_stages2(1), std::vector<Shape>{parse_shape("1000x1000x1000:NN")})}) {
    StagedSearch search(settings, {}, shapes);
    search.start(survivors());
    const SearchBatch first = search.next(SearchHistory{shapes.size(), {}, {}});
    EXPECT_EQ(first.tiles.size(), 4u);
    EXPECT_TRUE(first.shapes.empty()) << "every probe at every shape";
    SearchHistory h;
    h.shape_count = shapes.size();
    for (const SgemmTile &t : first.tiles)
      for (std::size_t shape = 0; shape < shapes.size(); ++shape)
        h.timed.push_back(TimedResult{t, shape, 1.0, t.BN == 256 ? 100.0 : 50.0});
    const SearchBatch second = search.next(h);
    EXPECT_EQ(second.tiles, (std::vector<SgemmTile>{tile(256, 8, 2), tile(256, 8, 3), tile(256, 16, 3)}));
    EXPECT_TRUE(second.shapes.empty());
  }
}

// blas_probes: the probes it holds for time the waiting BLAS shape in the first stage, and
// the BLAS shape keeps its own best among them, though the mean ranks on the plain shapes.
TEST(StagedSearch, TheBlasProbesTimeTheBlasShapesFirstAndKeepTheirOwnFinalists) {
  StrategySettings settings = probe_bk16_stages2(1);
  settings.finalists_per_shape = 1;
  settings.blas_probes = Constraint::parse("BN <= 64");
  StagedSearch search(settings, {}, kPlainBlasPlain);
  search.start(survivors());
  const SearchBatch first = search.next(SearchHistory{3, {}, {}});
  ASSERT_EQ(first.tiles, (std::vector<SgemmTile>{tile(32, 16, 2), tile(64, 16, 2), tile(128, 16, 2), tile(256, 16, 2)}));
  EXPECT_EQ(first.shapes, (std::vector<std::vector<std::size_t>>{{0, 1, 2}, {0, 1, 2}, {0, 2}, {0, 2}}));

  // BN = 64 is poor at the plain shapes and far the best at the BLAS shape: counted in the
  // mean, its 300% there would lift it past BN = 128, which leads the mean of the plain
  // shapes and is the best at both. BN = 256's 1000% at the BLAS shape is a row of an
  // earlier run (BN = 256 is no blas_probe): it must choose nothing.
  const std::map<int, double> plain{{32, 60}, {64, 20}, {128, 100}, {256, 90}}, blas{{32, 50}, {64, 300}};
  SearchHistory h;
  h.shape_count = 3;
  for (std::size_t i = 0; i < first.tiles.size(); ++i)
    for (const std::size_t shape : first.shapes[i])
      h.timed.push_back(TimedResult{first.tiles[i], shape, 1.0,
                                    shape == 1 ? blas.at(first.tiles[i].BN) : plain.at(first.tiles[i].BN)});
  h.timed.push_back(TimedResult{tile(256, 16, 2), 1, 0.1, 1000.0});
  const SearchBatch second = search.next(h);
  ASSERT_EQ(search.finalists().size(), 2u);
  EXPECT_EQ(search.finalists()[0].BN, 128) << "the mean over the plain shapes: BN = 64's BLAS time stays out";
  EXPECT_EQ(search.finalists()[1].BN, 64) << "the BLAS shape's own best";
  // Both finalists' other variants at every shape; BN = 128's probe back for the BLAS
  // shape, BN = 64's not (it timed it in the first stage).
  EXPECT_EQ(second.tiles, (std::vector<SgemmTile>{tile(64, 8, 2), tile(64, 8, 3), tile(64, 16, 3), tile(128, 8, 2),
                                                  tile(128, 8, 3), tile(128, 16, 2), tile(128, 16, 3)}));
  const std::vector<std::size_t> all{0, 1, 2}, blas_shape{1};
  EXPECT_EQ(second.shapes, (std::vector<std::vector<std::size_t>>{all, all, all, all, all, blas_shape, all}));

  // Every proposal is one a run takes (the ledger throws on a tile proposed at a shape
  // twice); of the probes only BN = 256's, no blas_probe and no finalist, is left at the
  // BLAS shape.
  ProposalLedger ledger(survivors(), 3);
  ledger.take(first, search.name());
  EXPECT_NO_THROW(ledger.take(second, search.name()));
  std::set<int> probes_left;
  for (const ProposalLedger::Left &l : ledger.settle())
    if (l.tile.BK == 16 && l.tile.STAGES == 2) {
      probes_left.insert(l.tile.BN);
      EXPECT_EQ(l.shapes, (std::vector<bool>{false, true, false})) << describe_tile(l.tile);
    }
  EXPECT_EQ(probes_left, (std::set<int>{256}));

  // Without blas_probes the BLAS shape waits for every probe and BN = 64 is no finalist.
  StrategySettings plain_only = probe_bk16_stages2(1);
  plain_only.finalists_per_shape = 1;
  StagedSearch waiting(plain_only, {}, kPlainBlasPlain);
  waiting.start(survivors());
  EXPECT_EQ(waiting.next(SearchHistory{3, {}, {}}).shapes,
            (std::vector<std::vector<std::size_t>>{{0, 2}, {0, 2}, {0, 2}, {0, 2}}));
  SearchHistory plain_times;
  plain_times.shape_count = 3;
  for (const TimedResult &r : h.timed)
    if (r.shape != 1) plain_times.timed.push_back(r);
  waiting.next(plain_times);
  for (const SgemmTile &f : waiting.finalists()) EXPECT_NE(f.BN, 64) << describe_tile(f);
}

TEST(SearchStrategy, TheSpaceChoosesTheStrategy) {
  SearchSpace space;
  EXPECT_EQ(make_search_strategy(space, kTwoShapes)->name(), "exhaustive");
  space.strategy = probe_bk16_stages2(4);
  EXPECT_EQ(make_search_strategy(space, kTwoShapes)->name(), "staged");
}

}  // namespace
}  // namespace sgemm_tune
