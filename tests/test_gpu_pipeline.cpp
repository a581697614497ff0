// End-to-end on a real GPU: compile, load, verify against cuBLAS, time, record. Every test
// here skips, saying so, on a machine without a usable GPU.
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "gpu_test.h"
#include "test_paths.h"

#include "tuner/common/errors.h"
#include "tuner/gpu/device_info.h"
#include "tuner/pipeline/report.h"
#include "tuner/pipeline/tune.h"
#include "tuner/record/result_store.h"
#include "tuner/record/tile_columns.h"
#include "tuner/time/workspace.h"

namespace sgemm_tune {
namespace {

class GpuPipeline : public testing::GpuTest {
 protected:
  TuneOptions options(KernelSource kernel = KernelSource::embedded(), const std::string &space = "small.json") const {
    TuneOptions o;
    o.space = load_search_space(testing::source_dir() + "/tests/data/" + space);
    o.shapes = o.space.shapes;
    o.db_path = (dir_ / "tune.db").string();
    o.jobs = 4;
    o.kernel = std::move(kernel);
    o.command_line = "test";
    return o;
  }

  // The embedded template with a piece of text replaced wherever it stands: a kernel with
  // a planted bug.
  KernelSource planted(const std::string &from, const std::string &to) const {
    const KernelSource src = KernelSource::embedded();
    const auto tdir = dir_ / "template";
    std::filesystem::create_directories(tdir);
    for (auto [name, text] : src.headers) {
      if (name == src.entry_header) {
        // Every occurrence: the same lines may stand in the fast kernel and its edge variant.
        std::size_t at = text.find(from), planted = 0;
        for (; at != std::string::npos; at = text.find(from, at + to.size()), ++planted) text.replace(at, from.size(), to);
        EXPECT_GT(planted, 0u) << "template no longer contains: " << from;
      }
      std::ofstream(tdir / name, std::ios::binary) << text;
    }
    return KernelSource::from_directory(tdir.string());
  }

  // The integer columns of the one row that `sql` returns from the run's database, with
  // ?1 bound to the run's id when the query has it.
  static std::vector<std::int64_t> row(const TuneReport &r, const std::string &sql) {
    ResultStore store(r.db_path);
    Statement st = store.database().prepare(sql);
    if (sql.find("?1") != std::string::npos) st.bind(1, r.run_id);
    std::vector<std::int64_t> values;
    if (!st.step()) {
      ADD_FAILURE() << "no row from: " << sql;
      return values;
    }
    for (int i = 0; i < st.column_count(); ++i) values.push_back(st.column_int(i));
    return values;
  }

  static std::string run_status(const TuneReport &r) {
    ResultStore store(r.db_path);
    Statement st = store.database().prepare("SELECT status FROM runs WHERE id = ?1");
    st.bind(1, r.run_id);
    return st.step() ? st.column_text(0) : "(no run row)";
  }
};

TEST_F(GpuPipeline, TunesVerifiesAndRecordsEveryCandidate) {
  const TuneReport r = run_tuning(options());
  EXPECT_GT(r.counts.survivors, 0u);
  EXPECT_EQ(r.counts.wrong_result, 0u);
  EXPECT_EQ(r.counts.launch_failed, 0u);
  EXPECT_EQ(r.counts.ok, r.counts.survivors * r.shapes.size());
  ASSERT_EQ(r.shapes.size(), 2u);
  for (const ShapeReport &s : r.shapes) {
    EXPECT_GT(s.cublas_ms, 0);
    ASSERT_FALSE(s.ranked.empty());
    EXPECT_TRUE(std::is_sorted(s.ranked.begin(), s.ranked.end(),
                               [](const RankedResult &a, const RankedResult &b) { return a.time_ms < b.time_ms; }));
    for (const RankedResult &x : s.ranked) {
      EXPECT_LT(x.error, 1e-4);
      EXPECT_GT(x.tflops, 0);
    }
  }

  // One row per candidate per shape, each with a status; ok rows carry their measurements.
  const std::vector<std::int64_t> rows =
      row(r, "SELECT COUNT(*), SUM(status = 'ok'), SUM(status = 'ok' AND time_ms > 0 AND cublas_ms > 0 AND "
             "error_beta0 < 1e-4 AND error_beta < 1e-4) FROM results WHERE run_id = ?1");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], static_cast<std::int64_t>(r.counts.candidates * 2));
  EXPECT_EQ(rows[1], static_cast<std::int64_t>(r.counts.ok));
  EXPECT_EQ(rows[2], rows[1]);
  ResultStore store(r.db_path);
  Statement run = store.database().prepare("SELECT status, gpu_name, driver_version FROM runs WHERE id = ?1");
  run.bind(1, r.run_id);
  ASSERT_TRUE(run.step());
  EXPECT_EQ(run.column_text(0), "finished");
  EXPECT_EQ(run.column_text(1), r.gpu->name);
}

// BLAS shapes, each timed as sgemm_tuned runs it with the candidate's tile: the fast
// kernel where it can (an untransposed product the tile divides), else the edge kernel or the
// kernel of any operands; every one verified against cuBLAS on the same layout and ops.
TEST_F(GpuPipeline, BlasShapesAreVerifiedAndRecordedWithTheirOps) {
  TuneOptions o = options();
  o.shapes = {parse_shape("256x256x256:NN"), parse_shape("200x300x100:NT"), parse_shape("200x300x100:TN:col"),
              parse_shape("129x257x65:TT"),  parse_shape("256x128x64:NT:col"), parse_shape("97x33x1001:NN")};
  const TuneReport r = run_tuning(o);
  EXPECT_GT(r.counts.survivors, 0u);
  EXPECT_EQ(r.counts.wrong_result, 0u);
  EXPECT_EQ(r.counts.launch_failed, 0u);
  // Every tile serves every BLAS shape (its edge kernel takes any size).
  EXPECT_EQ(r.counts.ok, r.counts.survivors * o.shapes.size());
  ASSERT_EQ(r.shapes.size(), o.shapes.size());
  for (const ShapeReport &s : r.shapes) {
    EXPECT_TRUE(s.shape.blas);
    ASSERT_FALSE(s.ranked.empty()) << s.shape.to_string();
    for (const RankedResult &x : s.ranked) EXPECT_LT(x.error, 1e-4) << s.shape.to_string();
  }
  ResultStore store(r.db_path);
  Statement st = store.database().prepare(
      "SELECT operands, COUNT(*) FROM results WHERE run_id = ?1 AND status = 'ok' AND error_beta0 < 1e-4 AND "
      "error_beta < 1e-4 GROUP BY operands ORDER BY operands");
  st.bind(1, r.run_id);
  std::vector<std::string> operands;
  while (st.step()) {
    operands.push_back(st.column_text(0));
    EXPECT_EQ(st.column_int(1), static_cast<std::int64_t>(r.counts.survivors * (operands.back() == "NN" ? 2 : 1)));
  }
  EXPECT_EQ(operands, (std::vector<std::string>{"NN", "NT", "NT:col", "TN:col", "TT"}));
}

TEST_F(GpuPipeline, OccupancyModelMatchesTheRuntimeForEverySurvivor) {
  TuneOptions o = options();
  o.space.prune.min_warps_per_sm = 1;  // keep as many as possible to compare
  const TuneReport r = run_tuning(o);
  EXPECT_EQ(r.counts.occupancy_model_mismatches, 0u);
  const std::vector<std::int64_t> compared = row(r,
      "SELECT COUNT(*), SUM(blocks_per_sm = runtime_blocks_per_sm) FROM results "
      "WHERE run_id = ?1 AND runtime_blocks_per_sm IS NOT NULL");
  ASSERT_EQ(compared.size(), 2u);
  EXPECT_GT(compared[0], 0);
  EXPECT_EQ(compared[1], compared[0]);
}

// small.json searched in two stages: its three STAGES = 2 candidates first, then the
// best one's STAGES = 3 variant.
TuneOptions staged_small(TuneOptions o) {
  o.space.prune.min_warps_per_sm = 1;
  o.space.strategy.kind = StrategySettings::Kind::staged;
  o.space.strategy.probe = {{8, 2}};  // STAGES = 2 first
  o.space.strategy.finalists = 1;
  return o;
}

TEST_F(GpuPipeline, StagedSearchTakesOnlyFinalistsToTheSecondStage) {
  const TuneReport r = run_tuning(staged_small(options()));
  ASSERT_EQ(r.finalists.size(), 1u);
  // Stage one compiles the three STAGES = 2 candidates; stage two only the finalist's
  // STAGES = 3 variant (which may still be pruned, e.g. for spills).
  EXPECT_EQ(r.counts.compiled, 4u);
  EXPECT_EQ(r.counts.pruned.at("not_finalist"), 2u);
  EXPECT_EQ(r.counts.ok, 2 * r.counts.survivors);
  const std::vector<std::int64_t> rows = row(r,
      "SELECT COUNT(*), SUM(reason = 'not_finalist'), SUM(stages = 3 AND registers IS NOT NULL) FROM results "
      "WHERE run_id = ?1");
  EXPECT_EQ(rows, (std::vector<std::int64_t>{
                      12,  // every candidate at both shapes has a row
                      4,
                      2,  // the compiled finalist, at both shapes
                  }));
}

// A BLAS shape waits for the finalists: the first stage times its probes at the plain shape
// alone and ranks on it; the finalist's probe comes back for the BLAS shape, compiled
// again with its edge kernel, and the other probes' rows there say why they were not timed.
TEST_F(GpuPipeline, StagedSearchTimesBlasShapesOnTheFinalistsOnly) {
  TuneOptions o = staged_small(options());
  o.space.references.clear();  // a reference is timed at every shape in the first stage
  o.shapes = {parse_shape("1024x1024x1024"), parse_shape("200x300x100:NN")};
  const TuneReport r = run_tuning(o);
  ASSERT_EQ(r.finalists.size(), 1u);
  EXPECT_EQ(r.counts.compiled, 4u);     // as without the BLAS shape
  EXPECT_EQ(r.counts.taken_again, 1u);  // the finalist's STAGES = 2 probe
  EXPECT_EQ(r.counts.pruned.at("not_finalist"), 2u);
  EXPECT_EQ(r.counts.wrong_result, 0u);
  EXPECT_EQ(r.counts.launch_failed, 0u);
  // The three probes survive; the finalist's STAGES = 3 variant may be pruned (spills).
  ASSERT_GE(r.counts.survivors, 3u);
  const std::size_t finalist_tiles = r.counts.survivors - 2;
  // Every survivor at the plain shape; the finalist's tiles at the BLAS shape.
  EXPECT_EQ(r.counts.ok, r.counts.survivors + finalist_tiles);
  ASSERT_EQ(r.shapes.size(), 2u);
  EXPECT_EQ(r.shapes[1].ranked.size(), finalist_tiles);
  for (const RankedResult &x : r.shapes[1].ranked) {
    EXPECT_EQ(x.tile.BN, r.finalists[0].BN);
    EXPECT_EQ(x.tile.WM, r.finalists[0].WM);
  }
  const std::vector<std::int64_t> rows = row(r,
      "SELECT COUNT(*), SUM(reason = 'not_finalist'), SUM(operands = 'NN' AND status = 'ok' AND registers > 0), "
      "SUM(operands = 'NN' AND reason = 'not_finalist' AND stages = 2) FROM results WHERE run_id = ?1");
  EXPECT_EQ(rows, (std::vector<std::int64_t>{
                      12,  // every candidate at both shapes has one row
                      6,   // two never proposed, at both shapes; the other two probes at the BLAS shape
                      static_cast<std::int64_t>(finalist_tiles),  // with the edge body's registers
                      2,   // the probes that were not the finalist's, at the BLAS shape
                  }));
  std::ostringstream text;
  print_report(r, text, 5);
  EXPECT_NE(text.str().find("1 of their candidates compiled again for the shapes they waited for"), std::string::npos)
      << text.str();
}

// A probe NVRTC refuses in the first stage is recorded so at the BLAS shape it waited for,
// not as a structure that lost.
TEST_F(GpuPipeline, AProbeThatFailedKeepsItsReasonAtTheShapesItWaitedFor) {
  const std::string line =
      "detail::sgemm_tiles<detail::kWholeTiles, SGEMM_TUNE_TILE_ARGS>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 0);";
  TuneOptions o = staged_small(options(planted(line, "static_assert(!(BN == 128 && STAGES == 2), \"planted\");\n  " + line)));
  o.space.references.clear();
  o.shapes = {parse_shape("1024x1024x1024"), parse_shape("200x300x100:NN")};
  const TuneReport r = run_tuning(o);
  EXPECT_EQ(r.counts.compile_failed, 1u);
  EXPECT_EQ(row(r, "SELECT COUNT(*), SUM(status = 'compile_failed' AND reason = 'nvrtc') FROM results "
                   "WHERE run_id = ?1 AND bn = 128 AND stages = 2"),
            (std::vector<std::int64_t>{2, 2}))
      << "at the plain shape, and at the BLAS shape it never reached";
  // The same command again resumes from what was measured: the refusal it reads there
  // (at the plain shape, the fast kernel's) is the reason at the BLAS shape again.
  const TuneReport again = run_tuning(o);
  EXPECT_EQ(row(again, "SELECT COUNT(*), SUM(status = 'compile_failed' AND reason = 'nvrtc') FROM results "
                       "WHERE run_id = ?1 AND bn = 128 AND stages = 2"),
            (std::vector<std::int64_t>{1, 1}));
}

// kill -9 in the middle of a tuning, then the same command again: the database is intact,
// the second run measures only what the first did not, and together they cover everything.
TEST_F(GpuPipeline, KilledRunResumesWithoutMeasuringAgain) {
  const std::string db = (dir_ / "tune.db").string();
  const std::string space = testing::source_dir() + "/tests/data/small.json";
  const std::string binary = testing::tuner_binary();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // One compile job: candidates arrive one by one, so the kill lands between them.
    execl(binary.c_str(), binary.c_str(), "--space", space.c_str(), "--db", db.c_str(), "--quiet", "--jobs", "1",
          "--strategy", "exhaustive", static_cast<char *>(nullptr));
    _exit(127);
  }
  const auto ok_rows = [&] {
    try {
      Database reader = Database::open(db, false);
      Statement st = reader.prepare("SELECT COUNT(*) FROM results WHERE status = 'ok'");
      return st.step() ? st.column_int(0) : 0;
    } catch (const std::exception &) {
      return std::int64_t{0};  // not created yet
    }
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (ok_rows() < 2 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the tuning finished before it could be killed";
  const std::int64_t before = ok_rows();
  ASSERT_GE(before, 2);
  {
    Database check = Database::open(db, false);
    Statement st = check.prepare("PRAGMA integrity_check");
    ASSERT_TRUE(st.step());
    EXPECT_EQ(st.column_text(0), "ok");
  }

  TuneOptions o = options();  // the same space and settings as the killed command
  o.space.strategy.kind = StrategySettings::Kind::exhaustive;
  const TuneReport r = run_tuning(o);
  EXPECT_EQ(r.counts.reused, static_cast<std::size_t>(before));
  // The killed run, left 'running', was marked interrupted by the run that resumed it.
  EXPECT_EQ(row(r, "SELECT COUNT(*), SUM(status = 'interrupted') FROM runs WHERE id <> ?1"),
            (std::vector<std::int64_t>{1, 1}));
  EXPECT_GT(r.counts.ok, 0u) << "the killed run had measured everything: nothing was resumed";
  // Every (candidate, shape) pair measured exactly once across the two runs, and all ranked.
  const std::vector<std::int64_t> pairs =
      row(r, "SELECT COUNT(*), SUM(n = 1) FROM (SELECT COUNT(*) AS n FROM results WHERE status = 'ok' "
             "GROUP BY m, n, k, " + tile_column_list() + ")");
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[1], pairs[0]);
  EXPECT_EQ(pairs[0], before + static_cast<std::int64_t>(r.counts.ok));
  std::size_t ranked = 0;
  for (const ShapeReport &s : r.shapes) ranked += s.ranked.size();
  EXPECT_EQ(static_cast<std::int64_t>(ranked), pairs[0]);
}

// A candidate that faults (an illegal address: a sticky error, the context is lost) takes
// down only the measurement worker: it is recorded, the worker starts again, the run goes on.
TEST_F(GpuPipeline, FaultingCandidatesAreRecordedAndTheRunGoesOn) {
  TuneOptions o = options(planted("float *cSub = cWarp + (wSubRow * WSUBM) * cLd + wSubCol * WSUBN;",
                                  "float *cSub = cWarp + (wSubRow * WSUBM) * cLd + wSubCol * WSUBN + (1ll << 40);"));
  o.worker_binary = testing::tuner_binary();
  o.space.prune.min_warps_per_sm = 1;
  const TuneReport r = run_tuning(o);
  ASSERT_GE(r.counts.survivors, 2u);
  EXPECT_EQ(r.counts.ok, 0u);
  EXPECT_EQ(r.counts.launch_failed, 2 * r.counts.survivors);  // every survivor, at both shapes
  const auto failed = static_cast<std::int64_t>(r.counts.launch_failed);
  EXPECT_EQ(row(r, "SELECT COUNT(*), SUM(reason = 'cudaErrorIllegalAddress') FROM results WHERE run_id = ?1 AND "
                   "status = 'launch_failed'"),
            (std::vector<std::int64_t>{failed, failed}));
  EXPECT_EQ(run_status(r), "finished");
}

// A candidate that never finishes is stopped by the time limit and recorded likewise.
TEST_F(GpuPipeline, HangingCandidatesAreStoppedByTheTimeout) {
  TuneOptions o = options(planted("const int numTiles = kEnd - kBegin;",
                                  "const int numTiles = kEnd - kBegin;\n    while (numTiles > 0) __nanosleep(1000);"));
  o.worker_binary = testing::tuner_binary();
  o.space.prune.min_warps_per_sm = 1;
  o.space.values[8] = {2};  // fewer candidates: each costs the whole timeout
  o.space.timing.timeout_seconds = 3;
  const TuneReport r = run_tuning(o);
  ASSERT_GE(r.counts.survivors, 1u);
  EXPECT_EQ(r.counts.ok, 0u);
  EXPECT_EQ(r.counts.launch_failed, 2 * r.counts.survivors);
  EXPECT_EQ(row(r, "SELECT COUNT(*) FROM results WHERE run_id = ?1 AND status = 'launch_failed' AND "
                   "reason = 'timeout'"),
            (std::vector<std::int64_t>{static_cast<std::int64_t>(r.counts.launch_failed)}));
}

// The worker itself measures like the in-process bench: correct candidates stay correct.
TEST_F(GpuPipeline, IsolatedMeasurementAgreesWithInProcess) {
  TuneOptions o = options();
  o.worker_binary = testing::tuner_binary();
  const TuneReport r = run_tuning(o);
  EXPECT_GT(r.counts.ok, 0u);
  EXPECT_EQ(r.counts.ok, 2 * r.counts.survivors);
  EXPECT_EQ(r.counts.occupancy_model_mismatches, 0u);
}

// timing.method "graphs": every candidate and cuBLAS timed as replays of a captured round,
// in the measurement worker as a tuning runs by default. The run records its method, which
// makes its fingerprint its own: a run timed back to back afterwards reuses none of it.
TEST_F(GpuPipeline, ATuningTimedAsGraphsRecordsItsMethodAndIsNotReusedBackToBack) {
  TuneOptions o = options();
  o.worker_binary = testing::tuner_binary();
  o.space.timing.method = TimingMethod::graphs;
  const TuneReport graphs = run_tuning(o);
  EXPECT_GT(graphs.counts.survivors, 0u);
  EXPECT_EQ(graphs.counts.wrong_result, 0u);
  EXPECT_EQ(graphs.counts.launch_failed, 0u);
  EXPECT_EQ(graphs.counts.ok, graphs.counts.survivors * graphs.shapes.size());
  for (const ShapeReport &s : graphs.shapes) EXPECT_GT(s.cublas_ms, 0);
  // Each ok row timed whole replays of one launch per operand set: at least five, or the
  // three of the early stop.
  {
    ResultStore store(graphs.db_path);
    Statement st = store.database().prepare("SELECT m, n, k, repeats FROM results WHERE run_id = ?1 AND status = 'ok'");
    st.bind(1, graphs.run_id);
    int rows = 0;
    while (st.step()) {
      const Shape shape{st.column_int("m"), st.column_int("n"), st.column_int("k")};
      const auto sets = static_cast<std::int64_t>(ShapeWorkspace::set_count(shape, 2 * graphs.gpu->l2_bytes));
      const std::int64_t repeats = st.column_int("repeats");
      EXPECT_EQ(repeats % sets, 0) << shape.to_string() << ": " << repeats << " launches over " << sets << " sets";
      EXPECT_TRUE(repeats / sets >= 5 || repeats / sets == 3) << shape.to_string() << ": " << repeats / sets;
      ++rows;
    }
    EXPECT_EQ(rows, static_cast<int>(graphs.counts.ok));
  }

  o.space.timing.method = TimingMethod::stream;
  const TuneReport stream = run_tuning(o);
  EXPECT_EQ(stream.counts.reused, 0u);
  EXPECT_EQ(stream.counts.ok, graphs.counts.ok);
  ResultStore store(graphs.db_path);
  Statement st = store.database().prepare("SELECT timing_method, fingerprint FROM runs ORDER BY id");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.column_text(0), "graphs");
  const std::string graphs_fingerprint = st.column_text(1);
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.column_text(0), "stream");
  EXPECT_NE(st.column_text(1), graphs_fingerprint);
}

// --devices all: a measurement worker on every GPU of the machine, fed by the one compile
// pool. The same candidates are measured as on one GPU, every measured row names a GPU of
// this machine and is compared with that GPU's cuBLAS, and what the GPUs measured adds up.
// With one GPU, all is one worker.
class GpuDevices : public GpuPipeline {
 protected:
  // (measured rows, rows that name a GPU of this machine with its PCI bus id, rows whose
  // cuBLAS is their GPU's, rows that name a GPU although none measured them) of a run.
  std::vector<std::int64_t> measured_rows(const TuneReport &r) const {
    ResultStore store(r.db_path);
    Statement st = store.database().prepare(
        "SELECT status, device, pci_bus_id, m, n, k, cublas_ms FROM results WHERE run_id = ?1");
    st.bind(1, r.run_id);
    std::vector<std::int64_t> counts(4, 0);
    while (st.step()) {
      const bool measured = st.column_text("status") == "ok" || st.column_text("status") == "wrong_result" ||
                            st.column_text("status") == "launch_failed";
      if (!measured) {
        counts[3] += st.is_null(1) && st.is_null(2) ? 0 : 1;
        continue;
      }
      ++counts[0];
      if (st.is_null(1) || st.is_null(2)) continue;
      const auto device = static_cast<int>(st.column_int("device"));
      if (device < 0 || device >= gpu_count() || open_gpu(device).pci_bus_id != st.column_text("pci_bus_id")) continue;
      ++counts[1];
      const Shape shape{st.column_int("m"), st.column_int("n"), st.column_int("k")};
      for (const DeviceReport &d : r.devices)
        for (std::size_t i = 0; i < r.shapes.size(); ++i)
          if (d.device == device && r.shapes[i].shape == shape && d.cublas_ms.at(i) == st.column_double("cublas_ms"))
            ++counts[2];
    }
    return counts;
  }

  static std::vector<std::int64_t> outcome_counts(const TuneReport &r) {
    return row(r, "SELECT COUNT(*), SUM(status = 'ok'), SUM(status = 'pruned'), SUM(status = 'compile_failed') "
                  "FROM results WHERE run_id = ?1");
  }

  void expect_all_devices_measure_as_one(bool isolated) {
    TuneOptions one = options();
    one.space.strategy.kind = StrategySettings::Kind::exhaustive;
    one.space.prune.min_warps_per_sm = 1;  // more survivors to share
    if (isolated) one.worker_binary = testing::tuner_binary();
    one.db_path = (dir_ / "one.db").string();
    TuneOptions all = one;
    all.db_path = (dir_ / "all.db").string();
    all.devices = parse_device_selection("all");
    const TuneReport single = run_tuning(one);
    const TuneReport r = run_tuning(all);

    const int gpus = gpu_count();
    ASSERT_EQ(r.devices.size(), static_cast<std::size_t>(gpus));
    std::size_t candidates = 0;
    for (int d = 0; d < gpus; ++d) {
      const DeviceReport &dev = r.devices[static_cast<std::size_t>(d)];
      EXPECT_EQ(dev.device, d);
      EXPECT_EQ(dev.pci_bus_id, open_gpu(d).pci_bus_id);
      EXPECT_EQ(dev.cublas_ms.size(), r.shapes.size());
      EXPECT_EQ(dev.cublas_end_ms.size(), r.shapes.size());
      candidates += dev.candidates;
      std::cout << "GPU " << d << " (" << dev.pci_bus_id << "): " << dev.candidates << " candidates in "
                << dev.gpu_seconds << " s\n";
    }
    EXPECT_EQ(candidates, r.counts.survivors);
    EXPECT_GT(r.counts.survivors, 0u);
    EXPECT_EQ(r.counts.survivors, single.counts.survivors);
    EXPECT_EQ(r.counts.ok, single.counts.ok);
    EXPECT_EQ(r.counts.ok, 2 * r.counts.survivors);
    EXPECT_EQ(r.counts.measurements, single.counts.measurements);
    EXPECT_EQ(outcome_counts(r), outcome_counts(single));
    const std::vector<std::int64_t> rows = measured_rows(r);
    EXPECT_EQ(rows[0], static_cast<std::int64_t>(r.counts.measurements));
    EXPECT_EQ(rows[1], rows[0]) << "a measured row does not name a GPU of this machine";
    EXPECT_EQ(rows[2], rows[0]) << "a row's cuBLAS is not its own GPU's";
    EXPECT_EQ(rows[3], 0) << "a row no GPU measured names one";
    EXPECT_EQ(measured_rows(single)[1], rows[0]) << "a run on one GPU names it too";
    for (const ShapeReport &s : r.shapes)
      for (const RankedResult &x : s.ranked) {
        ASSERT_TRUE(x.device.has_value());
        EXPECT_GE(*x.device, 0);
        EXPECT_LT(*x.device, gpus);
      }
    EXPECT_EQ(run_status(r), "finished");
  }
};

TEST_F(GpuDevices, AllDevicesMeasureWhatOneDoesAndNameTheGpuOfEachResult) { expect_all_devices_measure_as_one(true); }

TEST_F(GpuDevices, AllDevicesInProcessMeasureWhatOneDoesToo) { expect_all_devices_measure_as_one(false); }

TEST_F(GpuDevices, ADeviceTheMachineLacksIsNamedBeforeAnythingRuns) {
  TuneOptions o = options();
  o.devices = parse_device_selection("0," + std::to_string(gpu_count()));
  try {
    run_tuning(o);
    FAIL() << "a device that does not exist was accepted";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("GPU " + std::to_string(gpu_count()) + " does not exist"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(o.db_path)) << "nothing is written when nothing can run";
}

TEST_F(GpuPipeline, ShapeTooLargeForTheGpuIsAClearError) {
  TuneOptions o = options();
  o.shapes = {Shape{262144, 262144, 1024}};  // C alone is 256 GiB
  try {
    run_tuning(o);
    FAIL() << "a shape larger than the GPU's memory was accepted";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("262144x262144x1024"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("MiB free"), std::string::npos) << e.what();
  }
}

TEST_F(GpuPipeline, ReadingCWhenBetaIsZeroIsCaught) {
  // BLAS: beta == 0 means C is not read. C is poisoned with NaN before the check.
  const TuneReport r = run_tuning(options(planted("const bool readC = beta != 0.0f;", "const bool readC = true;")));
  // Something must have been measured for "nothing was ranked" to mean "it was caught".
  ASSERT_GT(r.counts.survivors, 0u);
  EXPECT_EQ(r.counts.ok, 0u);
  EXPECT_EQ(r.counts.wrong_result, r.counts.survivors * 2);
  for (const ShapeReport &s : r.shapes) EXPECT_TRUE(s.ranked.empty()) << "a wrong result was ranked";
}

TEST_F(GpuPipeline, IgnoringBetaIsCaught) {
  const TuneReport r = run_tuning(options(planted("out.y += beta * old.y;", "out.y += old.y;")));
  ASSERT_GT(r.counts.survivors, 0u);
  EXPECT_EQ(r.counts.ok, 0u);
  EXPECT_EQ(r.counts.wrong_result, r.counts.survivors * 2);
  EXPECT_EQ(row(r, "SELECT COUNT(*) FROM results WHERE run_id = ?1 AND status = 'wrong_result' AND "
                   "error_beta0 < 1e-4 AND error_beta > 1e-4"),
            (std::vector<std::int64_t>{static_cast<std::int64_t>(r.counts.wrong_result)}));
}

TEST_F(GpuPipeline, PrefetchAndStreamKAreVerifiedOnTileCountsThatAreNotWholeWaves) {
  // Shapes with fewer tiles than the GPU holds, more but not whole waves, and 49 K slices
  // per tile: each stream-K launch splits tiles at other places.
  const TuneReport r = run_tuning(options(KernelSource::embedded(), "stream_k.json"));
  EXPECT_EQ(r.counts.survivors, 6u);
  EXPECT_EQ(r.counts.wrong_result, 0u);
  EXPECT_EQ(r.counts.launch_failed, 0u);
  EXPECT_EQ(r.counts.ok, r.counts.survivors * r.shapes.size());
}

TEST_F(GpuPipeline, StreamKWithoutItsPreparePassIsCaught) {
  // Without the prepare pass the split tiles accumulate into whatever C held (NaN in the
  // beta == 0 check, unscaled C in the beta != 0 one).
  TuneOptions o = options(planted("if (t < 0) return;", "return;"), "stream_k.json");
  o.space.constraints.clear();
  o.space.values[10] = {1};  // STREAMK only
  const TuneReport r = run_tuning(o);
  EXPECT_GT(r.counts.survivors, 0u);
  EXPECT_EQ(r.counts.ok, 0u);
  EXPECT_EQ(r.counts.wrong_result, r.counts.survivors * r.shapes.size());
}

}  // namespace
}  // namespace sgemm_tune
