// The database against a real SQLite file: schema, round trip, and refusal of files
// that are not ours to use.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <tuple>
#include <fstream>
#include <iostream>

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "tuned_db_fixture.h"
#include "tuner/common/embedded_files.h"
#include "tuner/common/errors.h"
#include "tuner/common/hash.h"
#include "tuner/record/database_file.h"
#include "tuner/record/exchange.h"
#include "tuner/record/migrations.h"
#include "tuner/pipeline/prior_timings.h"
#include "tuner/record/result_store.h"

namespace sgemm_tune {
namespace {

class DatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("sgemm_tune_db_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string &name = "tune.db") const { return (dir_ / name).string(); }

  static RunProvenance provenance() {
    return testing::h200_provenance(
        Fingerprint{"t1", "--gpu-architecture=sm_90", "13.0", "13.0 (580.159.04)", "NVIDIA H200", "9.0", "0.1.0"});
  }

  std::filesystem::path dir_;
};


// One run and one verified result, in the columns every schema version has: what an older
// database holds before it is migrated.
void insert_old_run_and_result(Database &db) {
  db.exec(R"(INSERT INTO runs (uid, started_at, command, tuner_version, space_name, space_source, space_hash,
               gpu_name, compute_capability, sm_count, clock_mhz, driver_version, runtime_version, nvrtc_version,
               compile_options, template_origin, template_hash, fingerprint)
             VALUES ('u1', 'now', 'c', '0.1.0', 's', 's', 'h', 'NVIDIA H200', '9.0', 132, 1980, 'd', 'r', 'n', 'o',
               'embedded', 't', 'fp'))");
  db.exec(R"(INSERT INTO results (run_id, m, n, k, bm, bn, bk, wm, wn, wniter, tm, tn, stages, status, time_ms,
               measured_at) VALUES (1, 4096, 4096, 4096, 128, 64, 16, 64, 32, 2, 4, 4, 2, 'ok', 3.0, 'now'))");
}

TEST_F(DatabaseTest, RoundTripsARunAndItsResults) {
  std::int64_t run = 0;
  {
    ResultStore store(path());
    run = store.begin_run(provenance());
    ResultRow ok;
    ok.shape = Shape{4096, 4096, 4096};
    ok.tile = SgemmTile{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
    ok.status = CandidateStatus::ok;
    ok.registers = 139;
    ok.blocks_per_sm = 3;
    ok.time_ms = 3.0;
    ok.tflops = 45.8;
    ok.error_beta0 = 1e-7;
    ResultRow pruned = ok;
    pruned.status = CandidateStatus::pruned;
    pruned.reason = "spills";
    pruned.time_ms.reset();
    pruned.tflops.reset();
    store.record(run, ok);
    store.record_all(run, {pruned, pruned});
    store.finish_run(run, true);
  }
  // A new connection sees everything that was committed.
  ResultStore again(path());
  Database &db = again.database();
  Statement runs = db.prepare("SELECT status, gpu_name, fingerprint, finished_at IS NOT NULL FROM runs WHERE id = ?1");
  runs.bind(1, run);
  ASSERT_TRUE(runs.step());
  EXPECT_EQ(runs.column_text(0), "finished");
  EXPECT_EQ(runs.column_text(1), "NVIDIA H200");
  EXPECT_EQ(runs.column_text(2), provenance().fingerprint.hash());
  EXPECT_EQ(runs.column_int(3), 1);

  Statement rows = db.prepare(
      "SELECT status, reason, bm, stages, registers, time_ms, tflops IS NULL FROM results WHERE run_id = ?1 ORDER BY id");
  rows.bind(1, run);
  ASSERT_TRUE(rows.step());
  EXPECT_EQ(rows.column_text(0), "ok");
  EXPECT_TRUE(rows.is_null(1));
  EXPECT_EQ(rows.column_int(2), 128);
  EXPECT_EQ(rows.column_int(3), 2);
  EXPECT_EQ(rows.column_int(4), 139);
  EXPECT_DOUBLE_EQ(rows.column_double(5), 3.0);
  EXPECT_EQ(rows.column_int(6), 0);
  int pruned_rows = 0;
  while (rows.step()) {
    EXPECT_EQ(rows.column_text(0), "pruned");
    EXPECT_EQ(rows.column_text(1), "spills");
    EXPECT_EQ(rows.column_int(6), 1);
    ++pruned_rows;
  }
  // The same pruned outcome twice under one fingerprint is stored once.
  EXPECT_EQ(pruned_rows, 1);
}

// What can be recomputed is not stored again: invalid outcomes never, a pruned outcome
// once per fingerprint; a second run that measures nothing new adds its run row alone.
TEST_F(DatabaseTest, ARunThatMeasuresNothingNewAddsNoResultRows) {
  ResultStore store(path());
  ResultRow invalid;
  invalid.shape = Shape{4096, 4096, 4096};
  invalid.tile = SgemmTile{128, 64, 16, 256, 32, 2, 4, 4, 2, 0, 0};
  invalid.status = CandidateStatus::invalid;
  invalid.reason = "warp_tile_split";
  ResultRow pruned = invalid;
  pruned.tile.WM = 64;
  pruned.status = CandidateStatus::pruned;
  pruned.reason = "residency";
  const auto count = [&] {
    Statement st = store.database().prepare("SELECT COUNT(*) FROM results");
    st.step();
    return st.column_int(0);
  };
  const std::int64_t first = store.begin_run(provenance());
  store.record_all(first, {invalid, pruned});
  store.finish_run(first, true, R"({"invalid": 1})");
  EXPECT_EQ(count(), 1);
  const std::int64_t second = store.begin_run(provenance());
  store.record_all(second, {invalid, pruned});
  store.finish_run(second, true);
  EXPECT_EQ(count(), 1);
  // Pruned for another reason (other settings), or under another fingerprint: stored.
  pruned.reason = "spills";
  store.record(second, pruned);
  EXPECT_EQ(count(), 2);
  RunProvenance other = provenance();
  other.fingerprint.driver_version = "13.1";
  store.record(store.begin_run(other), pruned);
  EXPECT_EQ(count(), 3);
  Statement counts = store.database().prepare("SELECT counts FROM runs WHERE id = :id");
  counts.bind(":id", first);
  ASSERT_TRUE(counts.step());
  EXPECT_EQ(counts.column_text("counts"), R"({"invalid": 1})");
}

TEST_F(DatabaseTest, ARunLeftRunningByADeadProcessIsMarkedInterrupted) {
  ResultStore store(path());
  const std::int64_t dead = store.begin_run(provenance());
  const std::int64_t alive = store.begin_run(provenance());
  // A process that has exited: its pid is free (a child reaped at once).
  const pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  Statement fake = store.database().prepare("UPDATE runs SET pid = :pid WHERE id = :id");
  fake.bind(":pid", static_cast<std::int64_t>(child)).bind(":id", dead).run();
  store.begin_run(provenance());
  Statement st = store.database().prepare("SELECT id, status, finished_at IS NOT NULL AS ended FROM runs ORDER BY id");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.column_int("id"), dead);
  EXPECT_EQ(st.column_text("status"), "interrupted");
  EXPECT_EQ(st.column_int("ended"), 1);
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.column_int("id"), alive);
  EXPECT_EQ(st.column_text("status"), "running");  // this process: still alive
}

TEST_F(DatabaseTest, FingerprintChangesWithEachPart) {
  const Fingerprint base = provenance().fingerprint;
  std::vector<Fingerprint> changed(8, base);
  changed[0].template_hash += "x";
  changed[1].compile_options += " -O3";
  changed[2].nvrtc_version = "13.1";
  changed[3].driver_version = "13.0 (580.160.00)";
  changed[4].gpu_name = "NVIDIA H100";
  changed[5].compute_capability = "9.1";
  changed[6].tuner_version = "0.2.0";
  changed[7].timing_method = "graphs";
  for (const auto &f : changed) EXPECT_NE(f.hash(), base.hash());
}

TEST_F(DatabaseTest, AFingerprintTimedBackToBackHashesAsBeforeRunsHadAMethod) {
  // Every fingerprint recorded before schema version 6 is of a run timed back to back; it
  // must still be the current one, or every earlier tuning would read as stale.
  Fingerprint f = provenance().fingerprint;
  std::uint64_t h = fnv1a64("sgemm-tune fingerprint");
  for (const std::string *part : {&f.template_hash, &f.compile_options, &f.nvrtc_version, &f.driver_version,
                                  &f.gpu_name, &f.compute_capability, &f.tuner_version}) {
    h = fnv1a64(*part, h);
    h = fnv1a64(std::string_view("\0", 1), h);
  }
  EXPECT_EQ(f.hash(), to_hex(h));
  f.timing_method = "";
  EXPECT_EQ(f.hash(), to_hex(h));
}

// A verified result of the seed tile at each of `shapes`, in run `run`; returns the row.
ResultRow record_ok_at(ResultStore &store, std::int64_t run, std::initializer_list<const char *> shapes) {
  ResultRow row;
  row.tile = SgemmTile{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
  row.status = CandidateStatus::ok;
  row.time_ms = 1.0;
  row.cublas_ms = 1.0;
  for (const char *shape : shapes) {
    row.shape = parse_shape(shape);
    store.record(run, row);
  }
  return row;
}

TEST_F(DatabaseTest, ABlasShapeIsRecordedAndReadBackWithItsOps) {
  ResultStore store(path());
  const std::int64_t run = store.begin_run(provenance());
  ResultRow row = record_ok_at(store, run, {"1024x1024x1024", "1024x1024x1024:NT", "1024x1024x1024:NT:col"});
  // A pruned outcome is stored once per shape, ops and layout included.
  row.status = CandidateStatus::pruned;
  row.reason = "spills";
  row.shape = parse_shape("1000x1000x1000:TT");
  store.record_all(run, {row, row});
  row.shape = parse_shape("1000x1000x1000");
  store.record(run, row);
  store.finish_run(run, true);

  std::vector<std::string> shapes;
  for (const PriorResult &p : store.prior_results(provenance().fingerprint.hash())) shapes.push_back(p.shape.to_string());
  std::sort(shapes.begin(), shapes.end());
  EXPECT_EQ(shapes, (std::vector<std::string>{"1024x1024x1024", "1024x1024x1024:NT", "1024x1024x1024:NT:col"}));
  Statement st = store.database().prepare("SELECT operands FROM results WHERE status = 'pruned' ORDER BY id");
  std::vector<std::string> pruned;
  while (st.step()) pruned.push_back(st.column_text(0));
  EXPECT_EQ(pruned, (std::vector<std::string>{"TT", ""}));

  // A database whose operands are not a shape's is refused, naming what it holds.
  store.database().exec("UPDATE results SET operands = 'XY' WHERE operands = 'NT'");
  try {
    store.prior_results(provenance().fingerprint.hash());
    FAIL() << "operands 'XY' were read as a shape";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("'XY'"), std::string::npos) << e.what();
  }
}

TEST_F(DatabaseTest, PriorsTakeABlasShapesResultsOnlyForThatShape) {
  ResultStore store(path());
  const std::int64_t run = store.begin_run(provenance());
  record_ok_at(store, run, {"1024x1024x1024", "1000x1000x1000:NT"});
  store.finish_run(run, true);
  const auto weights = [&](const std::vector<Shape> &shapes) {
    std::vector<double> out;
    for (const PriorTiming &p : load_prior_timings(store.database(), "NVIDIA H200", shapes)) out.push_back(p.weight);
    std::sort(out.begin(), out.end());
    return out;
  };
  // A run at other shapes learns from the plain result alone, at half weight.
  EXPECT_EQ(weights({parse_shape("2048x2048x2048")}), std::vector<double>{0.5});
  // A run at the BLAS shape takes its result at full weight.
  EXPECT_EQ(weights({parse_shape("1000x1000x1000:NT")}), (std::vector<double>{0.5, 1.0}));
}

TEST_F(DatabaseTest, SchemaVersionIsRecorded) {
  ResultStore store(path());
  Statement st = store.database().prepare("PRAGMA user_version");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.column_int(0), latest_schema_version());
  EXPECT_GE(latest_schema_version(), 1);
}

TEST_F(DatabaseTest, VersionOneDatabaseIsMigratedWithItsRows) {
  // A database written before PREFETCH and STREAMK existed: its rows ran with both off.
  {
    Database db = Database::open(path());
    const EmbeddedFile *v1 = nullptr;
    for (const EmbeddedFile &f : migration_files::embedded_files())
      if (std::string(f.name).rfind("0001", 0) == 0) v1 = &f;
    ASSERT_NE(v1, nullptr);
    db.exec(v1->content);
    db.exec("PRAGMA user_version = 1");
    insert_old_run_and_result(db);
    db.exec(R"(INSERT INTO kernels (fingerprint, bm, bn, bk, wm, wn, wniter, tm, tn, stages, lowered_name, cubin)
               VALUES ('fp', 128, 64, 16, 64, 32, 2, 4, 4, 2, 'sym', x'00'))");
  }
  ResultStore store(path());
  Statement version = store.database().prepare("PRAGMA user_version");
  ASSERT_TRUE(version.step());
  EXPECT_EQ(version.column_int(0), latest_schema_version());
  const std::vector<PriorResult> prior = store.prior_results("fp");
  ASSERT_EQ(prior.size(), 1u);
  EXPECT_EQ(prior[0].tile, (SgemmTile{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0}));
  Statement kernel = store.database().prepare("SELECT prefetch, stream_k, lowered_name FROM kernels");
  ASSERT_TRUE(kernel.step());
  EXPECT_EQ(kernel.column_int(0), 0);
  EXPECT_EQ(kernel.column_int(1), 0);
  EXPECT_EQ(kernel.column_text(2), "sym");
  // The new key admits the same tile with a switch on.
  store.record_kernel("fp", SgemmTile{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 1}, "sym2", std::string("\x01", 1));
  Statement count = store.database().prepare("SELECT COUNT(*) FROM kernels");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.column_int(0), 2);
}

TEST_F(DatabaseTest, VersionTwoDatabaseDropsDerivedRowsAndKeepsTheRest) {
  {
    Database db = Database::open(path());
    for (const EmbeddedFile &f : migration_files::embedded_files())
      if (std::string(f.name).rfind("0001", 0) == 0 || std::string(f.name).rfind("0002", 0) == 0) db.exec(f.content);
    db.exec("PRAGMA user_version = 2");
    for (const char *uid : {"u1", "u2"})
      db.exec(std::string(R"(INSERT INTO runs (uid, started_at, command, tuner_version, space_name, space_source,
                 space_hash, gpu_name, compute_capability, sm_count, clock_mhz, driver_version, runtime_version,
                 nvrtc_version, compile_options, template_origin, template_hash, fingerprint)
               VALUES (')") + uid + R"(', 'now', 'c', '0.1.0', 's', 's', 'h', 'NVIDIA H200', '9.0', 132, 1980, 'd', 'r',
                 'n', 'o', 'embedded', 't', 'fp'))");
    for (int run : {1, 2})
      for (const char *outcome : {"'invalid', 'warp_tile_split'", "'pruned', 'residency'"})
        db.exec("INSERT INTO results (run_id, m, n, k, bm, bn, bk, wm, wn, wniter, tm, tn, stages, status, reason, "
                "measured_at) VALUES (" + std::to_string(run) + ", 64, 64, 64, 128, 64, 16, 64, 32, 2, 4, 4, 2, " +
                outcome + ", 'now')");
    db.exec(R"(INSERT INTO results (run_id, m, n, k, bm, bn, bk, wm, wn, wniter, tm, tn, stages, status, time_ms,
                 measured_at) VALUES (2, 64, 64, 64, 128, 64, 16, 64, 32, 2, 4, 4, 3, 'ok', 1.0, 'now'))");
  }
  ResultStore store(path());
  Statement rows = store.database().prepare("SELECT status, run_id FROM results ORDER BY id");
  ASSERT_TRUE(rows.step());
  EXPECT_EQ(rows.column_text("status"), "pruned");  // the first of the two
  EXPECT_EQ(rows.column_int("run_id"), 1);
  ASSERT_TRUE(rows.step());
  EXPECT_EQ(rows.column_text("status"), "ok");
  EXPECT_FALSE(rows.step());
  Statement runs = store.database().prepare("SELECT COUNT(*) AS n FROM runs WHERE host IS NULL AND status = 'running'");
  ASSERT_TRUE(runs.step());
  EXPECT_EQ(runs.column_int("n"), 2);
  store.database().exec("UPDATE runs SET status = 'interrupted' WHERE id = 1");  // the new status is allowed
  Statement keys = store.database().prepare("PRAGMA foreign_keys");
  ASSERT_TRUE(keys.step());
  EXPECT_EQ(keys.column_int(0), 1);  // back on after the migration
}

TEST_F(DatabaseTest, VersionThreeDatabaseGainsTheMeasuringGpuColumnsEmpty) {
  // Written before a run could measure on several GPUs: which one measured a row is unknown.
  {
    Database db = Database::open(path());
    for (const EmbeddedFile &f : migration_files::embedded_files())
      if (std::atoi(f.name) <= 3) db.exec(f.content);
    db.exec("PRAGMA user_version = 3");
    insert_old_run_and_result(db);
  }
  ResultStore store(path());
  Statement version = store.database().prepare("PRAGMA user_version");
  ASSERT_TRUE(version.step());
  EXPECT_EQ(version.column_int(0), latest_schema_version());
  EXPECT_GE(latest_schema_version(), 4);
  Statement row = store.database().prepare("SELECT time_ms, device, pci_bus_id FROM results");
  ASSERT_TRUE(row.step());
  EXPECT_DOUBLE_EQ(row.column_double("time_ms"), 3.0);
  EXPECT_TRUE(row.is_null(1));
  EXPECT_TRUE(row.is_null(2));
  ASSERT_EQ(store.prior_results("fp").size(), 1u);  // still reused by a resumed run
  // And its shapes are plain ones (schema 5).
  Statement operands = store.database().prepare("SELECT operands FROM results");
  ASSERT_TRUE(operands.step());
  EXPECT_EQ(operands.column_text(0), "");
  EXPECT_EQ(store.prior_results("fp").front().shape, parse_shape("4096x4096x4096"));
}

// A provenance whose every field passes an import's checks.
RunProvenance exportable_provenance() {
  const CurrentEnvironment env = testing::h200_environment();
  return testing::h200_provenance(env.fingerprint_for(env.gpu_name, env.compute_capability));
}

// Two rows measured on two GPUs of one run, and one that no GPU measured.
std::int64_t record_rows_of_two_gpus(ResultStore &store, const RunProvenance &provenance) {
  const std::int64_t run = store.begin_run(provenance);
  const Shape shape{4096, 4096, 4096};
  ResultRow on_0 = testing::ok_row(shape, testing::kSeedTile, 3.0, 2.7);
  on_0.device = 0;
  on_0.pci_bus_id = "0000:1b:00.0";
  ResultRow on_1 = testing::ok_row(shape, testing::kBigTile, 2.8, 2.71);
  on_1.device = 1;
  on_1.pci_bus_id = "0000:3b:00.0";
  ResultRow pruned = testing::ok_row(shape, SgemmTile{128, 64, 16, 64, 32, 2, 4, 4, 3, 0, 0}, 1, 1);
  pruned.status = CandidateStatus::pruned;
  pruned.reason = "spills";
  pruned.time_ms.reset();
  store.record_all(run, {on_0, on_1, pruned});
  store.finish_run(run, true);
  return run;
}

// (status, device or -1, pci_bus_id or "") of every result row, in the order recorded.
std::vector<std::tuple<std::string, std::int64_t, std::string>> measuring_gpus(Database &db) {
  std::vector<std::tuple<std::string, std::int64_t, std::string>> out;
  Statement st = db.prepare("SELECT status, device, pci_bus_id FROM results ORDER BY id");
  while (st.step())
    out.emplace_back(st.column_text("status"), st.is_null(1) ? -1 : st.column_int("device"),
                     st.is_null(2) ? "" : st.column_text("pci_bus_id"));
  return out;
}

TEST_F(DatabaseTest, EachResultRecordsTheGpuThatMeasuredIt) {
  ResultStore store(path());
  record_rows_of_two_gpus(store, provenance());
  EXPECT_EQ(measuring_gpus(store.database()),
            (std::vector<std::tuple<std::string, std::int64_t, std::string>>{
                {"ok", 0, "0000:1b:00.0"}, {"ok", 1, "0000:3b:00.0"}, {"pruned", -1, ""}}));
}

TEST_F(DatabaseTest, ExportAndImportCarryTheGpuThatMeasured) {
  ResultStore store(path());
  record_rows_of_two_gpus(store, exportable_provenance());
  const nlohmann::json exported = export_database(store.database());
  const nlohmann::json &columns = exported["runs"][0]["results"]["columns"];
  EXPECT_NE(std::find(columns.begin(), columns.end(), "device"), columns.end()) << columns.dump();
  EXPECT_NE(std::find(columns.begin(), columns.end(), "pci_bus_id"), columns.end()) << columns.dump();

  ResultStore other(path("other.db"));
  const ImportSummary s = import_database(other.database(), exported, "export.json", nullptr);
  EXPECT_EQ(s.results_added, 3u);
  EXPECT_EQ(measuring_gpus(other.database()), measuring_gpus(store.database()));
  EXPECT_EQ(export_database(other.database()), exported);
  // A database file handed over is merged the same way.
  ResultStore third(path("third.db"));
  import_database_file(third.database(), path(), nullptr);
  EXPECT_EQ(measuring_gpus(third.database()), measuring_gpus(store.database()));
}

TEST_F(DatabaseTest, ExportAndImportCarryABlasShapesOps) {
  ResultStore store(path());
  const std::int64_t run = store.begin_run(exportable_provenance());
  record_ok_at(store, run, {"1000x1000x1000:NT", "1000x1000x1000:TN:col", "1024x1024x1024"});
  store.finish_run(run, true);
  const nlohmann::json exported = export_database(store.database());
  ResultStore other(path("other.db"));
  EXPECT_EQ(import_database(other.database(), exported, "export.json", nullptr).results_added, 3u);
  std::vector<std::string> shapes;
  for (const PriorResult &p : other.prior_results(exportable_provenance().fingerprint.hash()))
    shapes.push_back(p.shape.to_string());
  std::sort(shapes.begin(), shapes.end());
  EXPECT_EQ(shapes, (std::vector<std::string>{"1000x1000x1000:NT", "1000x1000x1000:TN:col", "1024x1024x1024"}));
  EXPECT_EQ(export_database(other.database()), exported);
}

TEST_F(DatabaseTest, AnExportFromBeforeTheGpuWasRecordedStillImports) {
  // An export of schema 3 has neither column, nor the operands of schema 5: its rows import
  // with neither, as plain shapes.
  ResultStore store(path());
  record_rows_of_two_gpus(store, exportable_provenance());
  nlohmann::json older = export_database(store.database());
  nlohmann::json &table = older["runs"][0]["results"];
  for (const char *gone : {"device", "pci_bus_id", "operands"}) {
    const auto at = std::find(table["columns"].begin(), table["columns"].end(), gone) - table["columns"].begin();
    table["columns"].erase(static_cast<std::size_t>(at));
    for (nlohmann::json &values : table["rows"]) values.erase(static_cast<std::size_t>(at));
  }
  ResultStore other(path("other.db"));
  import_database(other.database(), older, "older.json", nullptr);
  EXPECT_EQ(measuring_gpus(other.database()),
            (std::vector<std::tuple<std::string, std::int64_t, std::string>>{
                {"ok", -1, ""}, {"ok", -1, ""}, {"pruned", -1, ""}}));
}

TEST_F(DatabaseTest, ExportAndImportCarryTheTimingMethodUnderTheFingerprint) {
  ResultStore store(path());
  RunProvenance graphs = exportable_provenance();
  graphs.fingerprint.timing_method = "graphs";
  const std::int64_t run = store.begin_run(graphs);
  record_ok_at(store, run, {"256x256x256"});
  store.finish_run(run, true);
  const nlohmann::json exported = export_database(store.database());
  EXPECT_EQ(exported["runs"][0]["timing_method"], "graphs");
  ResultStore other(path("other.db"));
  EXPECT_EQ(import_database(other.database(), exported, "export.json", nullptr).results_added, 1u);
  EXPECT_EQ(other.prior_results(graphs.fingerprint.hash()).size(), 1u);
  EXPECT_EQ(export_database(other.database()), exported);

  // The method is hashed into the fingerprint: an export that says another cannot pass.
  nlohmann::json relabelled = exported;
  relabelled["runs"][0]["timing_method"] = "stream";
  relabelled["runs"][0]["uid"] = "relabelled";
  ResultStore third(path("third.db"));
  try {
    import_database(third.database(), relabelled, "relabelled.json", nullptr);
    FAIL() << "a run relabelled as timed back to back was imported";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("runs[0].fingerprint"), std::string::npos) << e.what();
  }
  relabelled["runs"][0]["timing_method"] = "guess";
  try {
    import_database(third.database(), relabelled, "relabelled.json", nullptr);
    FAIL() << "a run of an unknown timing method was imported";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("timing_method: expected stream or graphs"), std::string::npos) << e.what();
  }
  relabelled["runs"][0]["timing_method"] = nullptr;
  try {
    import_database(third.database(), relabelled, "relabelled.json", nullptr);
    FAIL() << "a run whose timing method is null was imported";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("runs[0].timing_method"), std::string::npos) << e.what();
  }
}

TEST_F(DatabaseTest, AnExportFromBeforeRunsHadATimingMethodImportsAsTimedBackToBack) {
  ResultStore store(path());
  const std::int64_t run = store.begin_run(exportable_provenance());
  record_ok_at(store, run, {"256x256x256"});
  store.finish_run(run, true);
  nlohmann::json older = export_database(store.database());
  ASSERT_EQ(older["runs"][0].erase("timing_method"), 1u);
  ResultStore other(path("other.db"));
  EXPECT_EQ(import_database(other.database(), older, "older.json", nullptr).results_added, 1u);
  Statement st = other.database().prepare("SELECT timing_method FROM runs");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.column_text(0), "stream");
}

TEST_F(DatabaseTest, VersionFiveDatabaseGainsTheTimingMethodOfItsRuns) {
  {
    Database db = Database::open(path());
    for (const EmbeddedFile &f : migration_files::embedded_files())
      if (std::atoi(f.name) <= 5) db.exec(f.content);
    db.exec("PRAGMA user_version = 5");
    insert_old_run_and_result(db);
  }
  ResultStore store(path());
  Statement st = store.database().prepare("SELECT timing_method FROM runs");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.column_text(0), "stream");  // the only way a run timed before version 6
  EXPECT_THROW(store.database().exec("UPDATE runs SET timing_method = 'guess'"), std::exception);
}

TEST_F(DatabaseTest, NewerSchemaIsRefused) {
  { ResultStore store(path()); }
  {
    Database db = Database::open(path());
    db.exec("PRAGMA user_version = " + std::to_string(latest_schema_version() + 1));
  }
  try {
    ResultStore store(path());
    FAIL();
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("newer sgemm-tune"), std::string::npos) << e.what();
  }
}

TEST_F(DatabaseTest, CorruptFileIsRefused) {
  std::ofstream(path(), std::ios::binary) << std::string(8192, 'x');
  try {
    ResultStore store(path());
    FAIL();
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("cannot be used"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path()), std::string::npos) << e.what();
  }
}

TEST_F(DatabaseTest, UnwritablePathIsRefused) {
  EXPECT_THROW(ResultStore(path("no/such/dir/tune.db")), UserError);
}

// Two processes recording into one file at once: WAL, a busy timeout and short immediate
// transactions mean neither fails with "database is locked" and no row is lost.
TEST_F(DatabaseTest, TwoWritersAtOnceLoseNothing) {
  constexpr int kRows = 300;
  const std::string db = path();
  { ResultStore create(db); }
  std::vector<pid_t> children;
  for (int w = 0; w < 2; ++w) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      try {
        ResultStore store(db);
        const std::int64_t run = store.begin_run(provenance());
        for (int i = 0; i < kRows; ++i) {
          ResultRow row;
          row.shape = Shape{64, 64, 64 * (i + 1)};
          row.tile = SgemmTile{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
          row.status = CandidateStatus::ok;
          row.time_ms = 1.0 + i;
          store.record(run, row);
        }
        store.finish_run(run, true);
        _exit(0);
      } catch (const std::exception &e) {
        std::cerr << "writer " << w << ": " << e.what() << "\n";
        _exit(1);
      }
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  ResultStore store(db);
  Statement count = store.database().prepare(
      "SELECT (SELECT COUNT(*) FROM results), (SELECT COUNT(*) FROM runs WHERE status = 'finished')");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.column_int(0), 2 * kRows);
  EXPECT_EQ(count.column_int(1), 2);
  Statement integrity = store.database().prepare("PRAGMA integrity_check");
  ASSERT_TRUE(integrity.step());
  EXPECT_EQ(integrity.column_text(0), "ok");
}

TEST_F(DatabaseTest, FailedTransactionLeavesNothing) {
  ResultStore store(path());
  const std::int64_t run = store.begin_run(provenance());
  {
    Transaction tx(store.database());
    store.database().exec("INSERT INTO results (run_id, m, n, k, bm, bn, bk, wm, wn, wniter, tm, tn, stages, status, "
                          "measured_at) VALUES (" + std::to_string(run) + ", 1,1,1,1,1,1,1,1,1,1,1,1,'ok','now')");
    // Destroyed without commit: rolled back.
  }
  Statement count = store.database().prepare("SELECT COUNT(*) FROM results");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.column_int(0), 0);
}

}  // namespace
}  // namespace sgemm_tune
