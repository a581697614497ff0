// The pipeline up to timing, with no GPU: enumerate, judge, compile for sm_90, prune.
#include <algorithm>
#include <sstream>

#include <gtest/gtest.h>

#include "broken_edge_kernel.h"
#include "small_dry_run.h"
#include "test_paths.h"

#include "tuner/common/errors.h"
#include "tuner/pipeline/report.h"
#include "tuner/pipeline/tune.h"
#include "tuner/prune/prune.h"

namespace sgemm_tune {
namespace {

using testing::small_dry_run;

TEST(DryRun, CountsAndSurvivorsOfASmallSpace) {
  std::vector<ProgressUpdate> updates;
  TuneCallbacks cb;
  cb.progress = [&](const ProgressUpdate &p) { updates.push_back(p); };
  const TuneReport r = run_tuning(small_dry_run(), cb);

  // 2 (BN) x 2 (WM) x 2 (STAGES) = 8; the constraint drops BN=128 with WM=128.
  EXPECT_EQ(r.counts.enumerated, 8u);
  EXPECT_EQ(r.counts.excluded_by_constraint, 2u);
  EXPECT_EQ(r.counts.candidates, 6u);
  // BM=128, WM=128, BN=64, WN=32: one warp row, two warp columns, 64 threads; A (128x16)
  // needs 128/16 = 8 passes of 16 rows: valid. All six are valid and tile both shapes.
  EXPECT_EQ(r.counts.invalid, 0u);
  EXPECT_EQ(r.counts.compile_failed, 0u);
  // Each candidate is pruned before compiling, or compiled and then kept or pruned.
  const auto pruned = [&](const char *reason) {
    const auto it = r.counts.pruned.find(reason);
    return it == r.counts.pruned.end() ? std::size_t{0} : static_cast<std::size_t>(it->second);
  };
  EXPECT_EQ(r.counts.compiled + pruned(kPruneRegisterEstimate) + pruned(kPruneSharedMemory), 6u);
  EXPECT_EQ(r.counts.survivors + r.counts.pruned_total(), 6u);
  EXPECT_EQ(r.counts.survivors, r.survivors.size());
  ASSERT_FALSE(r.survivors.empty());
  EXPECT_TRUE(std::is_sorted(r.survivors.begin(), r.survivors.end(),
                             [](const SurvivorInfo &a, const SurvivorInfo &b) { return a.tile < b.tile; }));

  const SmLimits h200 = sm_limits_for_arch("sm_90");
  for (const SurvivorInfo &s : r.survivors) {
    EXPECT_GT(s.registers, 0);
    EXPECT_EQ(s.smem_bytes, sgemm_tune_kernels::tile_smem_bytes(s.tile));
    EXPECT_EQ(s.blocks_per_sm, predict_occupancy(h200, tile_resources(s.tile, s.registers)).blocks_per_sm);
    EXPECT_GE(s.warps_per_sm, PruneSettings{}.min_warps_per_sm);
  }
  // Nothing on the GPU, nothing recorded.
  EXPECT_TRUE(r.shapes.empty());
  EXPECT_EQ(r.run_id, 0);
  EXPECT_EQ(r.counts.measurements, 0u);
  // Progress reached the end.
  ASSERT_FALSE(updates.empty());
  EXPECT_EQ(updates.back().done, updates.back().total);
}

// An edge kernel that fails to compile fails the BLAS shapes it runs, each candidate's at
// its own row, and is counted and said as such; the candidates stay survivors by their
// plain shape, as they are without the failure.
TEST(DryRun, AnEdgeKernelThatFailsToCompileFailsOnlyItsShapes) {
  TuneOptions plain = small_dry_run();
  plain.shapes = {parse_shape("1024x1024x1024")};
  const TuneReport expected = run_tuning(plain);

  TuneOptions o = small_dry_run();
  o.kernel = testing::with_broken_edge_kernel();
  o.shapes = {parse_shape("1024x1024x1024"), parse_shape("1000x1000x1000:NN")};
  std::vector<std::string> messages;
  TuneCallbacks cb;
  cb.message = [&](const std::string &m) { messages.push_back(m); };
  const TuneReport r = run_tuning(o, cb);
  EXPECT_EQ(r.counts.compile_failed, 0u);
  EXPECT_EQ(r.counts.compiled, expected.counts.compiled);
  EXPECT_EQ(r.counts.survivors, expected.counts.survivors);
  EXPECT_GT(r.counts.compiled, 0u);
  EXPECT_EQ(r.counts.companion_failed, r.counts.compiled) << "one shape of each compiled candidate";
  EXPECT_EQ(report_to_json(r)["counts"]["companion_failed"], r.counts.compiled);
  ASSERT_EQ(messages.size(), r.counts.compiled);
  for (const std::string &m : messages) {
    EXPECT_NE(m.find("compile failed: "), std::string::npos) << m;
    EXPECT_NE(m.find("its edge kernel, which runs 1000x1000x1000:NN"), std::string::npos) << m;
    EXPECT_EQ(m.find("1024x1024x1024"), std::string::npos) << m;
  }
  std::ostringstream text;
  print_report(r, text, 5);
  EXPECT_NE(text.str().find(std::to_string(r.counts.compiled) +
                            " (candidate, shape) pairs whose kernel failed to compile"),
            std::string::npos)
      << text.str();

  // With nothing else to run, the candidate fails as a whole.
  o.shapes = {parse_shape("1000x1000x1000:NN")};
  const TuneReport alone = run_tuning(o);
  EXPECT_EQ(alone.counts.compiled, 0u);
  EXPECT_EQ(alone.counts.survivors, 0u);
  EXPECT_EQ(alone.counts.companion_failed, 0u);
  EXPECT_GT(alone.counts.compile_failed, 0u);
  EXPECT_EQ(alone.counts.compile_failed + alone.counts.pruned_total() + alone.counts.invalid, alone.counts.candidates);
}

TEST(DryRun, JsonCarriesCountsAndSurvivorsByParameterName) {
  const nlohmann::json j = report_to_json(run_tuning(small_dry_run()));
  EXPECT_EQ(j.at("schema_version"), kReportJsonVersion);
  EXPECT_EQ(j.at("arch"), "sm_90");
  EXPECT_EQ(j.at("timing_method"), "stream");
  EXPECT_TRUE(j.at("dry_run").get<bool>());
  for (const char *key : {"enumerated", "invalid", "compile_failed", "pruned", "survivors"})
    EXPECT_TRUE(j.at("counts").contains(key)) << key;
  ASSERT_TRUE(j.at("survivors").is_array());
  ASSERT_FALSE(j.at("survivors").empty());
  for (const auto &s : j.at("survivors")) {
    for (const char *key : {"BM", "BN", "BK", "WM", "WN", "WNITER", "TM", "TN", "STAGES", "registers", "smem_bytes",
                            "blocks_per_sm"})
      EXPECT_TRUE(s.contains(key)) << key;
  }
}

TEST(DryRun, InvalidAndPrunedCandidatesAreCountedByReason) {
  TuneOptions o = small_dry_run();
  o.space.values[3] = {64, 256};  // WM = 256 does not divide BM = 128: invalid
  o.space.constraints.clear();
  o.space.prune.max_live_floats = 90;  // the seed keeps 96 floats live: pruned before compiling
  const TuneReport r = run_tuning(o);
  EXPECT_EQ(r.counts.candidates, 8u);
  EXPECT_EQ(r.counts.invalid, 4u);
  EXPECT_EQ(r.counts.pruned.at(kPruneRegisterEstimate), 2u);  // BN = 64, WM = 64, both stage counts
  // BN = 128 has 256 threads sharing the A prefetch: 88 floats live, under the limit.
  EXPECT_EQ(r.counts.compiled, 2u);
}

TEST(DryRun, StagedSearchStopsAfterTheFirstStageWithoutTimings) {
  TuneOptions o = small_dry_run();
  o.space.strategy.kind = StrategySettings::Kind::staged;
  o.space.strategy.probe = {{8, 2}};  // STAGES = 2 first
  const TuneReport r = run_tuning(o);
  EXPECT_EQ(r.strategy, "staged");
  // Three of the six candidates have STAGES = 2; the other three wait for timings.
  EXPECT_EQ(r.counts.survivors + r.counts.pruned_total() + r.counts.invalid, 3u);
  EXPECT_EQ(r.counts.deferred, 3u);
  for (const SurvivorInfo &s : r.survivors) EXPECT_EQ(s.tile.STAGES, 2);
}

TEST(DryRun, StagedSearchTakesTheReferenceIntoTheFirstStage) {
  TuneOptions o = small_dry_run();
  o.space.strategy.kind = StrategySettings::Kind::staged;
  o.space.strategy.probe = {{8, 3}};  // STAGES = 3 first; the seed reference has STAGES = 2
  const TuneReport r = run_tuning(o);
  // Three STAGES = 3 candidates and the seed; the other two STAGES = 2 candidates wait.
  EXPECT_EQ(r.counts.survivors + r.counts.pruned_total() + r.counts.invalid, 4u);
  EXPECT_EQ(r.counts.deferred, 2u);
}

// The first stage leaves a BLAS shape's edge kernel uncompiled, but for the reference, the
// yardstick at every shape: with an edge kernel NVRTC refuses, only the reference's fails.
TEST(DryRun, StagedSearchLeavesBlasShapesToTheFinalists) {
  TuneOptions o = small_dry_run();
  o.kernel = testing::with_broken_edge_kernel();
  o.shapes = {parse_shape("1024x1024x1024"), parse_shape("1000x1000x1000:NN")};
  o.space.strategy.kind = StrategySettings::Kind::staged;
  o.space.strategy.probe = {{8, 2}};  // STAGES = 2 first; the seed reference is one of them
  std::vector<std::string> messages;
  TuneCallbacks cb;
  cb.message = [&](const std::string &m) { messages.push_back(m); };
  const TuneReport r = run_tuning(o, cb);
  EXPECT_EQ(r.counts.compiled, 3u);
  EXPECT_EQ(r.counts.deferred, 3u);
  EXPECT_EQ(r.counts.companion_failed, 1u) << "the reference's edge kernel alone";
  EXPECT_EQ(r.counts.taken_again, 0u) << "a dry run has no second stage";
  const std::string seed = describe_tile(o.space.references.at(0).second);
  const auto failure = std::find_if(messages.begin(), messages.end(),
                                    [](const std::string &m) { return m.find("compile failed") != std::string::npos; });
  ASSERT_NE(failure, messages.end());
  EXPECT_NE(failure->find(seed), std::string::npos) << *failure;

  // Asked to time them in the first stage, every probe compiles its edge kernel.
  o.space.strategy.blas_shapes_in_first_stage = true;
  const TuneReport all = run_tuning(o);
  EXPECT_EQ(all.counts.compiled, 3u);
  EXPECT_EQ(all.counts.companion_failed, 3u);

  // So does every probe where one tiles no plain shape (BN = 128 does not divide 64): it
  // could not be ranked without its BLAS shapes.
  o.space.strategy.blas_shapes_in_first_stage = false;
  o.shapes = {parse_shape("1024x64x1024"), parse_shape("1000x1000x1000:NN")};
  const TuneReport unranked = run_tuning(o);
  EXPECT_EQ(unranked.counts.compiled, 2u);
  EXPECT_EQ(unranked.counts.companion_failed, 2u);
  EXPECT_EQ(unranked.counts.compile_failed, 1u) << "BN = 128 had only the BLAS shape to run";
}

TEST(DryRun, AShapeGivenTwiceIsRefused) {
  TuneOptions o = small_dry_run();
  o.shapes = {parse_shape("1024x1024x1024"), parse_shape("1000x1000x1000:NN"), parse_shape("1024X1024X1024")};
  try {
    run_tuning(o);
    FAIL() << "a run with a shape twice was accepted";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("shape 1024x1024x1024 is given twice"), std::string::npos) << e.what();
  }
}

TEST(DryRun, NeedsAnArchitectureWithoutAGpu) {
  if (gpu_count() > 0) GTEST_SKIP() << "a GPU is present: its architecture is the default";
  TuneOptions o = small_dry_run();
  o.arch.reset();
  try {
    run_tuning(o);
    FAIL();
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("--arch"), std::string::npos) << e.what();
  }
}

TEST(DryRun, UnknownArchitectureIsRefused) {
  TuneOptions o = small_dry_run();
  o.arch = "sm_12";
  EXPECT_THROW(run_tuning(o), UserError);
}

}  // namespace
}  // namespace sgemm_tune
