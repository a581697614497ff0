// `sgemm-tune report`: the data the page draws, read from real databases made without a GPU;
// the page's escaping of database text; and the command's refusals of bad input, each of
// which leaves no file behind. The page in a browser: tests/browser (label `browser`).
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "example_program.h"
#include "test_paths.h"
#include "tuned_db_fixture.h"
#include "tuner/common/errors.h"
#include "tuner/report/html_page.h"
#include "tuner/report/report_data.h"
#include "tuner/report/report_database.h"

namespace sgemm_tune {
namespace {

namespace fs = std::filesystem;
using testing::h200_environment;
using testing::h200_provenance;
using testing::kBigTile;
using testing::kSeedTile;
using testing::ok_row;

const Shape kBig{4096, 4096, 4096}, kSmall{1024, 1024, 1024};

class ReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sgemm_tune_report_" + std::to_string(getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    chmod(dir_.c_str(), 0755);
    fs::remove_all(dir_);
  }
  std::string path(const std::string &name) const { return (dir_ / name).string(); }

  // An old template's run (the seed tile at both shapes, kBigTile at 4096^3), then the
  // current template's run at 4096^3 only: 4096^3 is fresh, 1024^3 stale.
  std::string two_template_database() {
    const std::string db_path = path("tune.db");
    ResultStore store(db_path);
    Fingerprint old = env_.fingerprint_for(env_.gpu_name, env_.compute_capability);
    old.template_hash = "0123456789abcdef";
    std::int64_t run = store.begin_run(h200_provenance(old));
    store.record(run, ok_row(kBig, kSeedTile, 3.000, 2.700));
    store.record(run, ok_row(kBig, kBigTile, 2.800, 2.700));
    store.record(run, ok_row(kSmall, kSeedTile, 0.080, 0.070));
    store.finish_run(run, true, R"({"candidates":10,"invalid":4,"pruned":{"residency":2,"spills":1},"compiled":4,
                                    "measurements":3,"ok":3,"wrong_result":0,"launch_failed":0,"compile_failed":0})");
    run = store.begin_run(h200_provenance(env_.fingerprint_for(env_.gpu_name, env_.compute_capability)));
    store.record(run, ok_row(kBig, kBigTile, 2.600, 2.700));
    store.record(run, ok_row(kBig, kSeedTile, 3.100, 2.700));
    ResultRow wrong = ok_row(kBig, SgemmTile{64, 64, 8, 32, 32, 1, 4, 4, 2}, 2.0, 2.7);
    wrong.status = CandidateStatus::wrong_result;
    store.record(run, wrong);
    store.finish_run(run, true);  // no counts: the funnel comes from its rows
    return db_path;
  }

  nlohmann::json collect(const std::string &db_path, const ReportScope &scope = {}) {
    Database db = open_report_database(db_path);
    return collect_report_data(db, env_, scope, "tune.db");
  }

  fs::path dir_;
  CurrentEnvironment env_ = h200_environment();
};

TEST_F(ReportTest, BestPerShapeIsFreshUnderTheCurrentTemplateAndStaleUnderAnOldOne) {
  const nlohmann::json data = collect(two_template_database());
  ASSERT_EQ(data.at("best").size(), 2u);
  const nlohmann::json &small = data["best"][0], &big = data["best"][1];  // ordered by shape
  EXPECT_EQ(big.at("shape"), "4096x4096x4096");
  EXPECT_FALSE(big.at("stale"));
  EXPECT_DOUBLE_EQ(big.at("time_ms").get<double>(), 2.6);
  EXPECT_NEAR(big.at("percent").get<double>(), 103.85, 1e-9);
  EXPECT_EQ(big.at("tile").at("BN"), 256);
  EXPECT_EQ(small.at("shape"), "1024x1024x1024");
  EXPECT_TRUE(small.at("stale"));
  EXPECT_NE(small.at("changes").get<std::string>().find("template 0123456789abcdef -> "), std::string::npos);
  EXPECT_EQ(data.at("generator").at("database"), "tune.db");
  EXPECT_EQ(data.at("report_data_version"), kReportDataVersion);
}

TEST_F(ReportTest, HistoryStepsWhenTheTemplateChanges) {
  const nlohmann::json history = collect(two_template_database()).at("history");
  // Run 1: both shapes under the old template; run 2: 4096^3 under the new one only.
  ASSERT_EQ(history.size(), 3u);
  EXPECT_EQ(history[0].at("run_id"), 1);
  EXPECT_EQ(history[1].at("run_id"), 1);
  EXPECT_EQ(history[1].at("shape"), "4096x4096x4096");
  EXPECT_NEAR(history[1].at("percent").get<double>(), 96.43, 1e-9);
  EXPECT_EQ(history[2].at("run_id"), 2);
  EXPECT_NEAR(history[2].at("percent").get<double>(), 103.85, 1e-9);
  EXPECT_NE(history[1].at("fingerprint"), history[2].at("fingerprint"));
}

TEST_F(ReportTest, TimedCandidatesAreThoseOfTheBestEntrysFingerprintFastestFirstWithTheSeedFlagged) {
  const nlohmann::json data = collect(two_template_database());
  std::vector<nlohmann::json> big;
  for (const auto &c : data.at("candidates"))
    if (c.at("series") == 1) big.push_back(c);
  ASSERT_EQ(big.size(), 2u);  // the current run's two; not the old template's, not the wrong one
  EXPECT_EQ(big[0].at("rank"), 1);
  EXPECT_EQ(big[0].at("BM"), kBigTile.BM);
  EXPECT_FALSE(big[0].at("seed"));
  EXPECT_TRUE(big[1].at("seed"));
  EXPECT_DOUBLE_EQ(big[1].at("time_ms").get<double>(), 3.1);
}

TEST_F(ReportTest, EachRunSaysHowItTimed) {
  const std::string db_path = path("tune.db");
  {
    ResultStore store(db_path);
    Fingerprint f = env_.fingerprint_for(env_.gpu_name, env_.compute_capability);
    for (const char *method : {"stream", "graphs"}) {
      f.timing_method = method;
      const std::int64_t run = store.begin_run(h200_provenance(f));
      store.record(run, ok_row(kBig, kBigTile, 2.600, 2.700));
      store.finish_run(run, true);
    }
  }
  const nlohmann::json runs = collect(db_path).at("runs");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].at("timing_method"), "stream");
  EXPECT_EQ(runs[1].at("timing_method"), "graphs");
  EXPECT_NE(runs[0].at("fingerprint"), runs[1].at("fingerprint"));
}

TEST_F(ReportTest, FunnelFollowsThePipelineFromRecordedCountsElseFromRows) {
  const nlohmann::json runs = collect(two_template_database()).at("runs");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].at("funnel_from"), "counts");
  std::vector<std::string> steps;
  for (const auto &s : runs[0].at("funnel")) steps.push_back(s.at("step").get<std::string>() + "=" + s.at("count").dump());
  const std::vector<std::string> expected = {"enumerated=10", "invalid=4", "pruned: residency=2", "pruned: spills=1",
                                             "compile failed=0", "compiled=4", "timed=3",
                                             "stopped early (could not win)=0", "wrong result=0", "launch failed=0",
                                             "verified ok=3"};
  EXPECT_EQ(steps, expected);
  EXPECT_EQ(runs[1].at("funnel_from"), "rows");
  bool saw_wrong = false;
  for (const auto &s : runs[1].at("funnel"))
    if (s.at("step") == "wrong result") saw_wrong = s.at("count") == 1;
  EXPECT_TRUE(saw_wrong) << runs[1].at("funnel").dump();
  EXPECT_TRUE(funnel_from_counts("not json").empty());
  EXPECT_TRUE(funnel_from_counts("[1,2]").empty());
  // A staged search that took its finalists' probes again for the BLAS shapes says so.
  const nlohmann::json staged = funnel_from_counts(R"({"candidates": 6, "compiled": 4, "taken_again": 1})");
  const auto again = std::find_if(staged.begin(), staged.end(),
                                  [](const nlohmann::json &s) { return s.at("step") == "compiled again for more shapes"; });
  ASSERT_NE(again, staged.end()) << staged.dump();
  EXPECT_EQ(again->at("count"), 1);
  EXPECT_EQ((again - 1)->at("step"), "compiled");
}

TEST_F(ReportTest, ShapeAndGpuNarrowTheReport) {
  const std::string db = two_template_database();
  ReportScope scope;
  scope.shape = kSmall;
  const nlohmann::json data = collect(db, scope);
  ASSERT_EQ(data.at("best").size(), 1u);
  EXPECT_EQ(data["best"][0].at("shape"), "1024x1024x1024");
  for (const auto &h : data.at("history")) EXPECT_EQ(h.at("shape"), "1024x1024x1024");
  EXPECT_EQ(data.at("runs").size(), 1u);  // only the old template's run has 1024^3
  scope.shape.reset();
  scope.gpu = "NVIDIA H200";
  EXPECT_EQ(collect(db, scope).at("best").size(), 2u);
}

TEST_F(ReportTest, AnUnknownShapeOrGpuIsAnErrorNamingWhatThereIs) {
  const std::string db = two_template_database();
  ReportScope scope;
  scope.shape = Shape{512, 512, 512};
  try {
    collect(db, scope);
    FAIL() << "no error";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("no results for shape 512x512x512"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("4096x4096x4096 on NVIDIA H200"), std::string::npos) << e.what();
  }
  scope = {};
  scope.gpu = "NVIDIA B200";
  EXPECT_THROW(collect(db, scope), UserError);
}

TEST_F(ReportTest, JsonForAScriptElementHasNoMarkupCharactersAndReadsBackTheSame) {
  const nlohmann::json data = {{"gpu", "</script><script>alert(1)</script>"}, {"space", "\"><img src=x onerror=y>&amp;"},
                               {"bad utf8", std::string("a\xff")}};
  const std::string text = json_for_script(data);
  EXPECT_EQ(text.find_first_of("<>&"), std::string::npos) << text;
  const nlohmann::json back = nlohmann::json::parse(text);
  EXPECT_EQ(back.at("gpu"), data.at("gpu"));
  EXPECT_EQ(back.at("space"), data.at("space"));
  EXPECT_EQ(back.at("bad utf8"), "a\xEF\xBF\xBD");  // U+FFFD
}

// A page holds exactly the script elements it was made with, whatever the database says.
TEST_F(ReportTest, PageIsSelfContainedDeterministicAndKeepsDatabaseTextOutOfTheMarkup) {
  const std::string db_path = path("tune.db");
  {
    ResultStore store(db_path);
    Fingerprint f = env_.fingerprint_for("<script>window.__pwned=1</script>\"><img src=x onerror=y>", "9.0");
    RunProvenance p = h200_provenance(f);
    p.space_name = "--><script>alert(1)</script>";
    const std::int64_t run = store.begin_run(p);
    store.record(run, ok_row(kBig, kBigTile, 2.6, 2.7));
    store.finish_run(run, true);
  }
  const std::string page = report_page(collect(db_path));
  EXPECT_EQ(page, report_page(collect(db_path)));
  EXPECT_EQ(page.rfind("<!DOCTYPE html>\n<!-- Generated by sgemm-tune ", 0), 0u);
  std::size_t scripts = 0;
  for (std::size_t at = page.find("<script"); at != std::string::npos; at = page.find("<script", at + 1)) ++scripts;
  EXPECT_EQ(scripts, 5u);  // the data, Vega, Vega-Lite, Vega-Embed, the page's own
  // Up to the end of the data (the first script; the vendored libraries follow, and
  // Vega-Embed's own tooltip code spells "<img").
  const std::string own = page.substr(0, page.find("</script>"));
  EXPECT_EQ(own.find("<img"), std::string::npos);
  EXPECT_NE(own.find("--\\u003e\\u003cscript\\u003ealert(1)"), std::string::npos);
  EXPECT_EQ(own.find("--><script"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_EQ(page.find("sourceMappingURL"), std::string::npos);
  EXPECT_NE(page.find("\\u003cscript\\u003ewindow.__pwned=1\\u003c/script\\u003e"), std::string::npos);
}

// The command as a user meets it: the real binary, its exit code, its one line of error.
struct CommandResult {
  int code = -1;
  std::string out, err;
};

class ReportCommandTest : public ReportTest {
 protected:
  CommandResult report(const std::string &args) {
    const std::string cmd = testing::tuner_binary() + " report " + args + " 2>" + path("stderr.txt");
    CommandResult r;
    const testing::CommandOutput ran = testing::capture_stdout(cmd);
    r.out = ran.text;
    r.code = ran.exit_code;
    r.err = read(path("stderr.txt"));
    fs::remove(path("stderr.txt"));
    return r;
  }
  static std::string read(const std::string &file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // The names in the test's folder: what a failed command must not have added to.
  std::vector<std::string> listing() const {
    std::vector<std::string> out;
    for (const auto &e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  void expect_refused(const std::string &args, const std::string &message) {
    const auto before = listing();
    const CommandResult r = report(args);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(listing(), before) << "a refused report left a file behind";
  }
};

TEST_F(ReportCommandTest, WritesTheSameBytesFromTheSameDatabase) {
  const std::string db = two_template_database();
  const CommandResult first = report("--db " + db + " --out " + path("a.html"));
  ASSERT_EQ(first.code, 0) << first.err;
  EXPECT_NE(first.out.find("2 GPU and shape pairs, 2 runs, 3 timed configurations"), std::string::npos) << first.out;
  ASSERT_EQ(report("--db " + db + " --out " + path("b.html")).code, 0);
  const std::string a = read(path("a.html"));
  EXPECT_GT(a.size(), 500000u);  // the plotting libraries are inside
  EXPECT_EQ(a, read(path("b.html")));
  EXPECT_EQ(report("--db " + db + " --out " + path("c.html") + " --shape 1024x1024x1024").code, 0);
}

TEST_F(ReportCommandTest, AMissingDatabaseIsRefused) {
  expect_refused("--db " + path("none.db") + " --out " + path("r.html"), "no database at " + path("none.db"));
}

TEST_F(ReportCommandTest, ADatabaseThatIsNotOursIsRefusedAndLeftAsItWas) {
  const std::string foreign = path("photos.db");
  {
    Database db = Database::open(foreign);
    db.exec("PRAGMA journal_mode = DELETE");
    db.exec("CREATE TABLE albums (id INTEGER PRIMARY KEY, title TEXT)");
  }
  const std::string bytes = read(foreign);
  expect_refused("--db " + foreign + " --out " + path("r.html"), "is not an sgemm-tune database (it has tables albums");
  EXPECT_EQ(read(foreign), bytes);

  std::ofstream(path("notes.db")) << "not a database at all, just some text that is long enough to be read\n";
  expect_refused("--db " + path("notes.db") + " --out " + path("r.html"), "cannot be used");
}

TEST_F(ReportCommandTest, ADatabaseFromANewerSgemmTuneIsRefused) {
  const std::string db = two_template_database();
  Database::open(db).exec("PRAGMA user_version = 999");
  expect_refused("--db " + db + " --out " + path("r.html"), "newer sgemm-tune");
}

TEST_F(ReportCommandTest, AnUnknownShapeIsRefused) {
  const std::string db = two_template_database();
  expect_refused("--db " + db + " --out " + path("r.html") + " --shape 8x8x8", "no results for shape 8x8x8");
}

TEST_F(ReportCommandTest, AnUnwritableOutputPathIsRefusedWithoutAPartialFile) {
  const std::string db = two_template_database();
  expect_refused("--db " + db + " --out " + path("missing/dir/r.html"), "cannot write " + path("missing/dir/r.html"));
  fs::create_directory(path("taken"));  // a directory where the file should go
  expect_refused("--db " + db + " --out " + path("taken"), "cannot write " + path("taken"));
  EXPECT_TRUE(fs::is_empty(path("taken")));
}

}  // namespace
}  // namespace sgemm_tune
