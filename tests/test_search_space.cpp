#include <fstream>

#include <gtest/gtest.h>

#include "test_paths.h"

#include "tuner/common/errors.h"
#include "tuner/space/enumerate.h"
#include "tuner/space/search_space.h"

namespace sgemm_tune {
namespace {

const std::string kMinimal = R"({
  "parameters": {"BM": [128], "BN": [64], "BK": [16], "WM": [64], "WN": [32], "WNITER": [2],
                 "TM": [4], "TN": [4], "STAGES": [2, 3]},
  "shapes": ["4096x4096x4096"]
})";

// Replaces the first occurrence of `from` in the minimal space.
std::string variant(const std::string &from, const std::string &to) {
  std::string text = kMinimal;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

void expect_error(const std::string &text, const std::string &fragment) {
  try {
    parse_search_space(text, "space.json");
    FAIL() << "accepted: " << text;
  } catch (const UserError &e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("space.json: ", 0), 0u) << what;  // names the file first
    EXPECT_NE(what.find(fragment), std::string::npos) << what;
  }
}

TEST(SearchSpace, LoadsTheShippedSpaces) {
  const SearchSpace s = load_search_space(testing::source_dir() + "/search_spaces/4096.json");
  EXPECT_EQ(s.name, "4096");
  ASSERT_EQ(s.shapes.size(), 1u);
  EXPECT_EQ(s.shapes[0].to_string(), "4096x4096x4096");
  // The issue's minimum coverage.
  EXPECT_EQ(s.values[0], (std::vector<int>{64, 128, 256}));
  EXPECT_EQ(s.values[2], (std::vector<int>{8, 16, 32}));
  EXPECT_EQ(s.values[8], (std::vector<int>{2, 3}));
  ASSERT_EQ(s.references.size(), 1u);
  EXPECT_EQ(s.references[0].first, "seed");
  const SgemmTile seed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
  EXPECT_TRUE(s.references[0].second == seed);
  // The seed's configuration is in the space and passes its constraints.
  const Enumeration e = enumerate_candidates(s);
  EXPECT_NE(std::find(e.candidates.begin(), e.candidates.end(), seed), e.candidates.end());
}

TEST(SearchSpace, DefaultsApplyWhenSectionsAreOmitted) {
  const SearchSpace s = parse_search_space(kMinimal);
  EXPECT_EQ(s.size(), 2u);
  EXPECT_EQ(s.timing.repeats, TimingSettings{}.repeats);
  EXPECT_EQ(s.timing.method, TimingMethod::stream);
  EXPECT_DOUBLE_EQ(s.verify.tolerance, VerifySettings{}.tolerance);
  EXPECT_EQ(s.prune.min_blocks_per_sm, PruneSettings{}.min_blocks_per_sm);
  EXPECT_FALSE(s.content_hash.empty());
}

TEST(SearchSpace, ReadsSettings) {
  const SearchSpace s = parse_search_space(variant(R"("shapes")", R"("timing": {"warmup": 1, "repeats": 7, "method": "graphs"},
      "verify": {"tolerance": 0.001, "beta": -2}, "prune": {"allow_spills": true, "min_warps_per_sm": 8},
      "constraints": ["THREADS >= 128"], "shapes")"));
  EXPECT_EQ(s.timing.warmup, 1);
  EXPECT_EQ(s.timing.repeats, 7);
  EXPECT_EQ(s.timing.method, TimingMethod::graphs);
  EXPECT_DOUBLE_EQ(s.verify.tolerance, 0.001);
  EXPECT_DOUBLE_EQ(s.verify.beta, -2);
  EXPECT_TRUE(s.prune.allow_spills);
  EXPECT_EQ(s.prune.min_warps_per_sm, 8);
  ASSERT_EQ(s.constraints.size(), 1u);
}

TEST(SearchSpace, EveryFieldIsValidated) {
  expect_error("{", "malformed JSON");
  expect_error("4E466", "malformed JSON");  // found by the fuzzer: a number overflow
  expect_error("[1, 2]", "JSON object at the top level");
  expect_error(variant(R"("shapes")", R"("colour": 1, "shapes")"), "field 'colour': unknown field");
  expect_error(variant(R"("BM": [128])", R"("BX": [128])"), "field 'parameters.BX': unknown field");
  expect_error(variant(R"("BM": [128], )", ""), "field 'parameters.BM': missing");
  expect_error(variant("[128]", "[]"), "field 'parameters.BM': expected a non-empty list");
  expect_error(variant("[128]", "[128, \"x\"]"), "field 'parameters.BM[1]': expected an integer");
  expect_error(variant("[128]", "[128.5]"), "field 'parameters.BM[0]': expected an integer");
  expect_error(variant("[128]", "[0]"), "field 'parameters.BM[0]': expected an integer from 1");
  expect_error(variant("[128]", "[-64]"), "expected an integer from 1");
  expect_error(variant("[128]", "[128, 128]"), "listed twice");
  expect_error(variant("[128]", "128"), "field 'parameters.BM': expected a list");
  expect_error(variant(R"("4096x4096x4096")", R"("4096x4096")"), "field 'shapes[0]'");
  expect_error(variant(R"("4096x4096x4096")", R"("0x1x1")"), "positive");
  expect_error(variant(R"("4096x4096x4096")", R"("1000x1000x1000:NT", "4096x4096x4096", "1000X1000X1000:NT")"),
               "field 'shapes[2]': 1000x1000x1000:NT is listed twice");
  expect_error(variant(R"("shapes")", R"("constraints": ["BM >"], "shapes")"), "field 'constraints[0]'");
  expect_error(variant(R"("shapes")", R"("constraints": "BM > 1", "shapes")"), "field 'constraints'");
  expect_error(variant(R"("shapes")", R"("timing": {"repeats": 0}, "shapes")"), "field 'timing.repeats'");
  expect_error(variant(R"("shapes")", R"("timing": {"reps": 3}, "shapes")"), "field 'timing.reps': unknown");
  expect_error(variant(R"("shapes")", R"("timing": {"method": "events"}, "shapes")"),
               "field 'timing.method': expected \"stream\" or \"graphs\", got \"events\"");
  expect_error(variant(R"("shapes")", R"("verify": {"beta": 0}, "shapes")"), "field 'verify.beta'");
  expect_error(variant(R"("shapes")", R"("prune": {"allow_spills": 1}, "shapes")"), "expected true or false");
  expect_error(variant(R"("shapes")", R"("format_version": 99, "shapes")"), "newer than this sgemm-tune reads");
  expect_error(variant(R"("shapes")", R"("references": {"x": {"BM": 1}}, "shapes")"), "references.x.BN");
  expect_error(variant(R"("shapes")", R"("strategy": {"kind": "greedy"}, "shapes")"), "field 'strategy.kind'");
  expect_error(variant(R"("shapes")", R"("strategy": {"kind": "staged"}, "shapes")"), "field 'strategy.probe'");
  expect_error(variant(R"("shapes")", R"("strategy": {"kind": "staged", "probe": {"BK": 32}}, "shapes")"),
               "not among the values of parameters.BK");
  expect_error(variant(R"("shapes")", R"("strategy": {"kind": "staged", "probe": {"BQ": 16}}, "shapes")"),
               "field 'strategy.probe.BQ': unknown field");
}

TEST(SearchSpace, AProbedParameterMayListSeveralValues) {
  const SearchSpace s = parse_search_space(
      variant(R"("shapes")", R"("strategy": {"kind": "staged", "probe": {"STAGES": [3, 2], "BK": 16}}, "shapes")"));
  // One (index, value) pair per value, in the file's order within a parameter.
  EXPECT_EQ(s.strategy.probe, (std::vector<std::pair<std::size_t, int>>{{2, 16}, {8, 3}, {8, 2}}));
  expect_error(variant(R"("shapes")", R"("strategy": {"kind": "staged", "probe": {"STAGES": []}}, "shapes")"),
               "field 'strategy.probe.STAGES': expected an integer or a non-empty list of integers");
  expect_error(variant(R"("shapes")", R"("strategy": {"kind": "staged", "probe": {"STAGES": [2, 4]}}, "shapes")"),
               "field 'strategy.probe.STAGES[1]': 4 is not among the values of parameters.STAGES");
  expect_error(variant(R"("shapes")", R"("strategy": {"kind": "staged", "probe": {"STAGES": [2, 2]}}, "shapes")"),
               "field 'strategy.probe.STAGES[1]': 2 is listed twice");
  expect_error(variant(R"("shapes")", R"("strategy": {"kind": "staged", "probe": {"STAGES": ["2"]}}, "shapes")"),
               "field 'strategy.probe.STAGES[0]'");
}

TEST(SearchSpace, SwitchesDefaultToOffAndTakeOnlyZeroOrOne) {
  // Left out (every space written before the switches existed): searched at 0 only.
  const SearchSpace plain = parse_search_space(kMinimal, "space.json");
  EXPECT_EQ(plain.values[9], (std::vector<int>{0}));
  EXPECT_EQ(plain.values[10], (std::vector<int>{0}));
  const SearchSpace both =
      parse_search_space(variant(R"("STAGES": [2, 3]})", R"("STAGES": [2, 3], "PREFETCH": [0, 1], "STREAMK": [1]})"),
                         "space.json");
  EXPECT_EQ(both.values[9], (std::vector<int>{0, 1}));
  EXPECT_EQ(both.values[10], (std::vector<int>{1}));
  expect_error(variant(R"("STAGES": [2, 3]})", R"("STAGES": [2, 3], "STREAMK": [2]})"), "parameters.STREAMK[0]");
  expect_error(variant(R"("STAGES": [2, 3]})", R"("STAGES": [2, 3], "PREFETCH": [-1]})"), "parameters.PREFETCH[0]");
  // A size parameter still must be at least 1.
  expect_error(variant(R"("BM": [128])", R"("BM": [0])"), "parameters.BM[0]");
}

TEST(SearchSpace, ReadsAStagedStrategy) {
  const SearchSpace s = parse_search_space(
      variant(R"("shapes")", R"("strategy": {"kind": "staged", "probe": {"STAGES": 3, "BK": 16}, "finalists": 5}, "shapes")"));
  EXPECT_EQ(s.strategy.kind, StrategySettings::Kind::staged);
  EXPECT_EQ(s.strategy.finalists, 5);
  // In parameter order, whatever the file's order.
  ASSERT_EQ(s.strategy.probe.size(), 2u);
  EXPECT_EQ(s.strategy.probe[0], (std::pair<std::size_t, int>{2, 16}));
  EXPECT_EQ(s.strategy.probe[1], (std::pair<std::size_t, int>{8, 3}));
  EXPECT_FALSE(s.strategy.blas_shapes_in_first_stage) << "BLAS shapes wait for the finalists unless asked";
  const SearchSpace asked = parse_search_space(variant(
      R"("shapes")", R"("strategy": {"kind": "staged", "probe": {"BK": 16}, "blas_shapes_in_first_stage": true}, "shapes")"));
  EXPECT_TRUE(asked.strategy.blas_shapes_in_first_stage);
  expect_error(variant(R"("shapes")",
                       R"("strategy": {"kind": "staged", "probe": {"BK": 16}, "blas_shapes_in_first_stage": 1}, "shapes")"),
               "field 'strategy.blas_shapes_in_first_stage': expected true or false");

  EXPECT_FALSE(s.strategy.blas_probes) << "no probe times a waiting BLAS shape early unless the space names it";
  const auto with_strategy = [&](const std::string &strategy) {
    return variant(R"("shapes")", R"("strategy": )" + strategy + R"(, "shapes")");
  };
  const SearchSpace probes = parse_search_space(with_strategy(
      R"({"kind": "staged", "probe": {"BK": 16}, "finalists_per_shape": 1, "blas_probes": "THREADS == 128"})"));
  ASSERT_TRUE(probes.strategy.blas_probes);
  EXPECT_EQ(probes.strategy.blas_probes->text(), "THREADS == 128");
  expect_error(with_strategy(R"({"kind": "staged", "probe": {"BK": 16}, "finalists_per_shape": 1, "blas_probes": "THREADS =="})"),
               "field 'strategy.blas_probes'");
  expect_error(with_strategy(R"({"kind": "staged", "probe": {"BK": 16}, "finalists_per_shape": 1, "blas_probes": 128})"),
               "field 'strategy.blas_probes': expected a string");
  // Where the probes' BLAS times could choose nothing: a clear error, not a costlier run.
  expect_error(with_strategy(R"({"kind": "staged", "probe": {"BK": 16}, "blas_probes": "THREADS == 128"})"),
               "field 'strategy.blas_probes': needs finalists_per_shape of 1 or more");
  expect_error(with_strategy(R"({"kind": "random", "budget": 8, "blas_probes": "THREADS == 128"})"),
               "field 'strategy.blas_probes': only the staged strategy has a first stage");
}

TEST(SearchSpace, MissingFileIsAClearError) {
  try {
    load_search_space("/nonexistent/space.json");
    FAIL();
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/space.json: cannot open"), std::string::npos) << e.what();
  }
}

TEST(Enumerate, ProductLessConstraints) {
  const SearchSpace s = parse_search_space(variant(R"("shapes")", R"("constraints": ["STAGES == 3"], "shapes")"));
  const Enumeration e = enumerate_candidates(s);
  EXPECT_EQ(e.enumerated, 2u);
  EXPECT_EQ(e.excluded_by_constraint, 1u);
  ASSERT_EQ(e.candidates.size(), 1u);
  EXPECT_EQ(e.candidates[0].STAGES, 3);
}

TEST(Enumerate, CoversEveryCombinationOnce) {
  const SearchSpace s = parse_search_space(variant(R"("BM": [128])", R"("BM": [256, 64, 128])"));
  const Enumeration e = enumerate_candidates(s);
  EXPECT_EQ(e.enumerated, 6u);
  ASSERT_EQ(e.candidates.size(), 6u);
  EXPECT_TRUE(std::is_sorted(e.candidates.begin(), e.candidates.end()));
  EXPECT_EQ(std::adjacent_find(e.candidates.begin(), e.candidates.end()), e.candidates.end());
}

}  // namespace
}  // namespace sgemm_tune

namespace sgemm_tune {
namespace {

TEST(SearchSpace, ReadsABudgetedStrategy) {
  const SearchSpace s = parse_search_space(
      R"({"parameters": {"BM": [128], "BN": [64], "BK": [16], "WM": [64], "WN": [32], "WNITER": [2], "TM": [4],
          "TN": [4], "STAGES": [2]}, "strategy": {"kind": "model", "budget": 300, "seed": 42}})");
  EXPECT_EQ(s.strategy.kind, StrategySettings::Kind::model);
  EXPECT_EQ(s.strategy.budget, 300u);
  EXPECT_EQ(s.strategy.seed, 42u);
  for (const char *bad : {R"("budget": -1)", R"("seed": 1.5)", R"("kind": "annealing")", R"("budget": "all")"}) {
    const std::string text = std::string(R"({"parameters": {"BM": [128], "BN": [64], "BK": [16], "WM": [64], "WN": [32],
        "WNITER": [2], "TM": [4], "TN": [4], "STAGES": [2]}, "strategy": {)") + bad + "}}";
    EXPECT_THROW(parse_search_space(text, "space.json"), UserError) << bad;
  }
  for (const char *name : {"exhaustive", "staged", "random", "genetic", "model"})
    EXPECT_EQ(strategy_name(*strategy_kind(name)), name);
  EXPECT_FALSE(strategy_kind("annealing"));
}

}  // namespace
}  // namespace sgemm_tune
