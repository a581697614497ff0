// Replay data: the file format and its checks (data from elsewhere), replay data from a
// database, and what a replay counts.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "test_paths.h"
#include "tuned_db_fixture.h"

#include "tuner/common/errors.h"
#include "tuner/prune/prune.h"
#include "tuner/record/replay_recording.h"
#include "tuner/search/exhaustive_search.h"
#include "tuner/search/replay.h"
#include "tuner/search/staged_search.h"

namespace sgemm_tune {
namespace {

using nlohmann::json;

const SgemmTile kA{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
const SgemmTile kB{128, 64, 16, 64, 32, 2, 4, 4, 3, 0, 0};
const SgemmTile kC{128, 128, 16, 64, 32, 2, 4, 4, 2, 0, 0};

json small_space() {
  return {{"name", "replay-test"},
          {"parameters", {{"BM", {128}}, {"BN", {64, 128}}, {"BK", {16}}, {"WM", {64}}, {"WN", {32}},
                          {"WNITER", {2}}, {"TM", {4}}, {"TN", {4}}, {"STAGES", {2, 3}}}},
          {"shapes", {"1024x1024x1024"}},
          {"strategy", {{"kind", "staged"}, {"probe", {{"STAGES", 2}}}, {"finalists", 1}}}};
}

json row(const SgemmTile &t, int shape, const char *status, json time) {
  json r = json::array();
  for (std::size_t p = 0; p < kTileParameters.size(); ++p) r.push_back(tile_parameter(t, p));
  r.push_back(shape);
  r.push_back(status);
  r.push_back(time);
  return r;
}

json small_data() {
  json columns(std::vector<std::string>(kTileParameters.begin(), kTileParameters.end()));
  columns.push_back("shape");
  columns.push_back("status");
  columns.push_back("time_ms");
  return {{"format", "sgemm-tune replay"},
          {"version", 1},
          {"description", "made up"},
          {"gpu", "NVIDIA H200"},
          {"space", small_space()},
          {"shapes", {{{"shape", "1024x1024x1024"}, {"cublas_ms", 0.070}}}},
          {"columns", columns},
          {"rows", {row(kA, 0, "ok", 0.090), row(kB, 0, "pruned", nullptr), row(kC, 0, "ok", 0.071)}}};
}

void expect_refused(const json &doc, const std::string &needle) {
  try {
    parse_replay_data(doc, "data.json");
    ADD_FAILURE() << "accepted; expected an error with " << needle;
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("data.json", 0), 0u) << e.what();
  }
}

TEST(ReplayData, ReadsAndWritesTheSameRows) {
  const ReplayData data = parse_replay_data(small_data(), "data.json");
  EXPECT_EQ(data.survivors(), (std::vector<SgemmTile>{kA, kB, kC}));
  EXPECT_EQ(data.times().size(), 2u);
  EXPECT_EQ(data.space.strategy.finalists, 1);
  const ReplayData again = parse_replay_data(json::parse(replay_data_to_text(data)), "again.json");
  ASSERT_EQ(again.rows.size(), data.rows.size());
  for (std::size_t i = 0; i < data.rows.size(); ++i) {
    EXPECT_EQ(again.rows[i].tile, data.rows[i].tile);
    EXPECT_EQ(again.rows[i].status, data.rows[i].status);
    EXPECT_EQ(again.rows[i].time_ms, data.rows[i].time_ms);
  }
  EXPECT_EQ(replay_data_to_text(again), replay_data_to_text(data));
}

TEST(ReplayData, EveryFieldIsChecked) {
  json d = small_data();
  d["format"] = "sgemm-tune export";
  expect_refused(d, "not sgemm-tune replay data");
  d = small_data(), d["version"] = 2;
  expect_refused(d, "version");
  d = small_data(), d["extra"] = 1;
  expect_refused(d, "unknown field");
  d = small_data(), d["description"] = "\x1b[2Jcleared";
  expect_refused(d, "description");
  d = small_data(), d["space"]["parameters"]["BM"] = json::array();
  expect_refused(d, "space");
  d = small_data(), d["shapes"][0]["cublas_ms"] = -1;
  expect_refused(d, "cublas_ms");
  d = small_data(), d["shapes"].push_back(d["shapes"][0]);
  expect_refused(d, "appears twice");
  d = small_data(), d["columns"][0] = "bm";
  expect_refused(d, "columns");
  d = small_data(), d["rows"][0][0] = 100;  // BM 100 breaks the validity rules
  expect_refused(d, "validity rules");
  d = small_data(), d["rows"][0][9] = 2;  // a switch is 0 or 1
  expect_refused(d, "PREFETCH");
  d = small_data(), d["rows"][0][11] = 1;
  expect_refused(d, "shape");
  d = small_data(), d["rows"][0][12] = "fast";
  expect_refused(d, "status");
  d = small_data(), d["rows"][0][13] = nullptr;
  expect_refused(d, "time_ms");
  d = small_data(), d["rows"][1][13] = 1.0;
  expect_refused(d, "must be null");
  d = small_data(), d["rows"][0][13] = 1e308 * 10;
  expect_refused(d, "time_ms");
  d = small_data(), d["rows"].push_back(d["rows"][0]);
  expect_refused(d, "second row");
  d = small_data(), d["rows"][0].push_back(1);
  expect_refused(d, "list of 14 values");
  d = small_data(), d["rows"] = json::array({row(kB, 0, "pruned", nullptr)});
  expect_refused(d, "nothing was timed");
}

TEST(Replay, CountsTimedCandidatesUntilWithinTheMargin) {
  const ReplayData data = parse_replay_data(small_data(), "data.json");
  ExhaustiveSearch search;
  const ReplayTrial t = replay_trial(search, data, {0.01, 0.5});
  // A (0.090 ms) is 27% slower than C (0.071), B has no time: within 50% after A, 1% after C.
  EXPECT_EQ(t.timed, 2u);
  EXPECT_EQ(t.reached, (std::vector<std::size_t>{2, 1}));
  const ReplaySummary s = replay_strategy(StrategySettings::Kind::staged, data, 0, 4, {0.01});
  EXPECT_EQ(s.median, std::vector<std::size_t>{2});
  const json j = replay_summaries_to_json(data, {s});
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["strategies"][0]["within"][0]["worst"], 2);
}

// A BLAS shape waits for the staged search's finalists in a replay as in a run: the
// finalist's probe comes back for it and counts once.
TEST(Replay, TheStagedSearchTimesBlasShapesOnItsFinalists) {
  json d = small_data();
  d["shapes"].push_back({{"shape", "1000x1000x1000:NN"}, {"cublas_ms", 0.150}});
  // At the plain shape C's structure wins; at the BLAS shape B, which no probe is, is best.
  d["rows"] = {row(kA, 0, "ok", 0.090), row(kA, 1, "ok", 0.200), row(kB, 0, "ok", 0.080),
               row(kB, 1, "ok", 0.150), row(kC, 0, "ok", 0.071), row(kC, 1, "ok", 0.300)};
  const ReplayData data = parse_replay_data(d, "data.json");
  ASSERT_TRUE(data.shapes[1].blas);
  std::vector<SgemmTile> references;
  for (const auto &[name, tile] : data.space.references) references.push_back(tile);
  StagedSearch search(data.space.strategy, references, data.shapes);
  const ReplayTrial t = replay_trial(search, data, {0.01, 1.0});
  EXPECT_EQ(t.proposed, (std::vector<SgemmTile>{kA, kC}));  // C once, though taken twice
  EXPECT_EQ(t.timed, 2u);
  // Within 100% at both shapes once C came back for the BLAS shape (0.300 ms against B's
  // 0.150); B was never timed, so never within 1%.
  EXPECT_EQ(t.reached, (std::vector<std::size_t>{kNotReached, 2}));
}

TEST(ReplayRecording, TakesTheSurvivorsOfAnExhaustiveRun) {
  ResultStore store(":memory:");
  const CurrentEnvironment env = testing::h200_environment();
  const RunProvenance p = testing::h200_provenance(env.fingerprint_for(env.gpu_name, env.compute_capability));
  const std::int64_t run = store.begin_run(p);
  const Shape shape{1024, 1024, 1024};
  store.record(run, testing::ok_row(shape, kA, 0.090, 0.070));
  ResultRow spilled = testing::ok_row(shape, kB, 0, 0);
  spilled.status = CandidateStatus::pruned, spilled.reason = kPruneSpills, spilled.registers = 255;
  spilled.time_ms.reset(), spilled.tflops.reset(), spilled.cublas_ms.reset();
  store.record(run, spilled);
  ResultRow early = spilled;  // pruned before compiling: not a survivor
  early.tile = SgemmTile{128, 128, 16, 64, 32, 2, 4, 4, 3, 0, 0}, early.reason = kPruneRegisterEstimate;
  early.registers.reset();
  store.record(run, early);
  store.record(run, testing::ok_row(shape, kC, 0.071, 0.070));
  store.finish_run(run, true);

  const ReplayData data = replay_data_from_database(store.database(), {small_space(), std::nullopt, "test", false});
  EXPECT_EQ(data.survivors(), (std::vector<SgemmTile>{kA, kB, kC}));  // enumeration order
  EXPECT_EQ(data.gpu, "NVIDIA H200");
  EXPECT_DOUBLE_EQ(data.cublas_ms[0], 0.070);
  parse_replay_data(json::parse(replay_data_to_text(data)), "written");

  // A staged run's not_finalist rows: not exhaustive, unless asked for a partial recording.
  const std::int64_t staged = store.begin_run(p);
  ResultRow not_taken = early;
  not_taken.tile = kB, not_taken.reason = kPruneNotFinalist;
  store.record(staged, not_taken);
  store.finish_run(staged, true);
  EXPECT_THROW(replay_data_from_database(store.database(), {small_space(), std::nullopt, "", false}), UserError);
  EXPECT_EQ(replay_data_from_database(store.database(), {small_space(), std::nullopt, "", true}).survivors().size(), 3u);
}

TEST(ReplayRecording, RefusesATileOutsideTheSpace) {
  ResultStore store(":memory:");
  const CurrentEnvironment env = testing::h200_environment();
  const std::int64_t run =
      store.begin_run(testing::h200_provenance(env.fingerprint_for(env.gpu_name, env.compute_capability)));
  store.record(run, testing::ok_row(Shape{1024, 1024, 1024}, testing::kBigTile, 0.07, 0.07));
  try {
    replay_data_from_database(store.database(), {small_space(), std::nullopt, "", false});
    ADD_FAILURE() << "accepted";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("not a candidate of the space"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sgemm_tune
