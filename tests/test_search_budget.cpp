// The searches with a budget (random, genetic, model) on recorded timings: the same seed
// gives the same proposals, the budget counts only candidates that came back timed, and
// nothing but a survivor is ever proposed, each once.
#include <set>

#include <gtest/gtest.h>

#include "test_paths.h"

#include "tuner/search/model_search.h"
#include "tuner/search/replay.h"

namespace sgemm_tune {
namespace {

const ReplayData &recorded() {
  static const ReplayData data =
      load_replay_data(testing::source_dir() + "/bench/replay/4096-h200-staged-trial.json");
  return data;
}

ReplayTrial trial(StrategySettings::Kind kind, std::size_t budget, std::uint64_t seed, const ReplayData &data,
                  const std::vector<PriorTiming> &prior = {}) {
  SearchSpace space = data.space;
  space.strategy.kind = kind;
  space.strategy.budget = budget;
  space.strategy.seed = seed;
  const auto strategy = make_search_strategy(space, data.shapes);
  return replay_trial(*strategy, data, {0.01, 0.02}, prior);
}

// Every survivor after the first `keep` of each three comes back untimed, as if pruned on
// its registers after compiling.
ReplayData with_failures(const ReplayData &data) {
  ReplayData out = data;
  const std::vector<SgemmTile> survivors = data.survivors();
  std::set<SgemmTile> failing;
  for (std::size_t i = 0; i < survivors.size(); i += 3) failing.insert(survivors[i]);
  for (ReplayRow &r : out.rows)
    if (failing.count(r.tile)) {
      r.status = CandidateStatus::pruned;
      r.time_ms = 0;
    }
  return out;
}

class BudgetedStrategy : public ::testing::TestWithParam<StrategySettings::Kind> {};

TEST_P(BudgetedStrategy, TheSameSeedGivesTheSameProposals) {
  const ReplayTrial a = trial(GetParam(), 60, 7, recorded());
  const ReplayTrial b = trial(GetParam(), 60, 7, recorded());
  const ReplayTrial c = trial(GetParam(), 60, 8, recorded());
  EXPECT_EQ(a.proposed, b.proposed);
  EXPECT_EQ(a.reached, b.reached);
  EXPECT_NE(a.proposed, c.proposed);
}

TEST_P(BudgetedStrategy, TimesExactlyItsBudget) {
  for (const std::size_t budget : {1u, 13u, 100u}) {
    const ReplayTrial t = trial(GetParam(), budget, 3, recorded());
    EXPECT_EQ(t.timed, budget);
    EXPECT_GE(t.proposed.size(), budget);
    EXPECT_LE(t.proposed.size(), budget + 1);  // one survivor of this recording was pruned after compiling
  }
}

TEST_P(BudgetedStrategy, CandidatesThatComeBackUntimedCostNoBudget) {
  const ReplayData data = with_failures(recorded());
  const ReplayTrial t = trial(GetParam(), 100, 5, data);
  EXPECT_EQ(t.timed, 100u);
  EXPECT_GT(t.proposed.size(), 100u);
}

TEST_P(BudgetedStrategy, ProposesOnlySurvivorsEachOnceAndAllWithoutABudget) {
  // replay_trial throws when a strategy proposes a non-survivor (an invalid or pruned
  // candidate never reaches a strategy) or a tile twice.
  const ReplayData data = with_failures(recorded());
  const ReplayTrial t = trial(GetParam(), 0, 11, data);
  const std::vector<SgemmTile> survivors = data.survivors();
  EXPECT_EQ(t.proposed.size(), survivors.size());
  EXPECT_EQ(std::set<SgemmTile>(t.proposed.begin(), t.proposed.end()),
            std::set<SgemmTile>(survivors.begin(), survivors.end()));
  EXPECT_NE(t.reached[0], kNotReached);  // everything timed: the best is among it
}

INSTANTIATE_TEST_SUITE_P(Strategies, BudgetedStrategy,
                         ::testing::Values(StrategySettings::Kind::random, StrategySettings::Kind::genetic,
                                           StrategySettings::Kind::model),
                         [](const auto &info) { return strategy_name(info.param); });

TEST(ModelSearch, WhatTheDatabaseKnewDecidesItsFirstBatch) {
  // The recording's own times, as if measured at another shape: the best recorded tile
  // must be in the first batch, before anything of this run is timed.
  const ReplayData &data = recorded();
  const std::vector<PriorTiming> prior = prior_from_replay(data, 0.5);
  SgemmTile best{};
  double best_ms = 1e30;
  for (const ReplayRow &r : data.rows)
    if (r.status == CandidateStatus::ok && r.time_ms < best_ms) best_ms = r.time_ms, best = r.tile;
  SearchSpace space = data.space;
  space.strategy.kind = StrategySettings::Kind::model;
  space.strategy.budget = 100;
  ModelSearch search(space.strategy);
  search.start(data.survivors());
  const SearchBatch first = search.next(SearchHistory{1, {}, prior});
  EXPECT_NE(std::find(first.tiles.begin(), first.tiles.end(), best), first.tiles.end());
  const ReplayTrial t = trial(StrategySettings::Kind::model, 100, 1, data, prior);
  EXPECT_LE(t.reached[0], first.tiles.size());
}

TEST(ModelSearch, PredictsNothingWithoutData) {
  StrategySettings s;
  s.kind = StrategySettings::Kind::model;
  ModelSearch search(s);
  search.start(recorded().survivors());
  for (const double p : search.predict(SearchHistory{1, {}, {}})) EXPECT_TRUE(std::isnan(p));
}

TEST(ReplayStrategies, EveryStrategyRunsOnTheSameData) {
  using Kind = StrategySettings::Kind;
  for (const Kind kind : {Kind::exhaustive, Kind::staged, Kind::random, Kind::genetic, Kind::model}) {
    const ReplaySummary s = replay_strategy(kind, recorded(), 50, 3, {0.01, 0.02});
    EXPECT_EQ(s.strategy, strategy_name(kind));
    ASSERT_EQ(s.median.size(), 2u);
    EXPECT_LE(s.median[0], s.worst[0]);
    EXPECT_GE(s.median[0], s.median[1] == kNotReached ? 0 : s.median[1]);  // within 2% comes no later
  }
}

}  // namespace
}  // namespace sgemm_tune
