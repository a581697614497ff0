// A real single-node Slurm cluster (tools/slurm/local_cluster.sh): a job array of dry-run
// shards whose union is the unsharded dry run, every candidate exactly once, and the merge
// job run twice, the second time adding nothing. Skips when Slurm is not installed or
// this is not root.
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "example_program.h"
#include "test_paths.h"
#include "tuned_db_fixture.h"

namespace sgemm_tune {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A shell command's exit status and output (standard error included).
using Result = testing::CommandOutput;

Result shell(const std::string &command) { return testing::run_command(command); }

std::string quoted(const std::string &s) { return "'" + s + "'"; }

json read_json(const fs::path &p) {
  std::ifstream in(p);
  return json::parse(in);
}

std::int64_t count(const std::string &db_path, const std::string &table) {
  Database db = Database::open(db_path, false);
  Statement st = db.prepare("SELECT count(*) FROM " + table);
  st.step();
  return st.column_int(0);
}

class SlurmCluster : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sgemm_tune_slurm_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "out");
    const Result up = shell(script("local_cluster.sh") + " start " + quoted(dir_.string()));
    if (up.exit_code == 77) GTEST_SKIP() << "no local Slurm cluster: " << up.text;
    ASSERT_EQ(up.exit_code, 0) << up.text;
    started_ = true;
    env_ = "SLURM_CONF=" + quoted((dir_ / "slurm.conf").string()) + " SGEMM_TUNE=" + quoted(testing::tuner_binary()) +
           " OUT=" + quoted((dir_ / "out").string()) + " ";
  }
  void TearDown() override {
    if (started_) shell(script("local_cluster.sh") + " stop " + quoted(dir_.string()));
    fs::remove_all(dir_);
  }
  static std::string script(const std::string &name) {
    return quoted(testing::source_dir() + "/tools/slurm/" + name);
  }
  // sbatch --wait, bounded: the job's exit status, with its log on failure.
  Result submit(const std::string &env, const std::string &options, const std::string &script_name) {
    return shell("cd " + quoted(dir_.string()) + " && " + env_ + env + "timeout 300 sbatch --wait " + options + " " +
                 script(script_name));
  }

  fs::path dir_;
  bool started_ = false;
  std::string env_;
};

TEST_F(SlurmCluster, AJobArrayOfShardsCoversTheDryRunOnceAndMergesIdempotently) {
  const std::string space = testing::source_dir() + "/tests/data/small.json";
  const std::string args = "--dry-run --arch sm_90 --json -q -j 1";
  const Result array = submit("SPACE=" + quoted(space) + " SGEMM_TUNE_ARGS=" + quoted(args) + " ", "--array=0-2",
                              "tune_array.sbatch");
  ASSERT_EQ(array.exit_code, 0) << array.text << shell("cat " + quoted(dir_.string()) + "/*.log").text;

  const Result whole = shell(quoted(testing::tuner_binary()) + " --space " + quoted(space) + " " + args);
  ASSERT_EQ(whole.exit_code, 0) << whole.text;
  const json unsharded = json::parse(whole.text);
  std::map<std::string, int> seen;
  std::size_t candidates = 0;
  for (int i = 0; i < 3; ++i) {
    const json part = read_json(dir_ / "out" / ("shard-" + std::to_string(i) + ".out"));
    candidates += part["counts"]["candidates"].get<std::size_t>();
    for (const json &s : part["survivors"]) ++seen[s.dump()];
  }
  EXPECT_EQ(candidates, unsharded["counts"]["candidates"].get<std::size_t>());
  ASSERT_EQ(seen.size(), unsharded["survivors"].size());
  for (const json &s : unsharded["survivors"]) EXPECT_EQ(seen[s.dump()], 1) << s.dump();

  // Two shards' databases (made here: a dry run writes none), merged by the merge job twice.
  const CurrentEnvironment env = testing::h200_environment();
  {
    ResultStore a((dir_ / "out" / "shard-0.db").string());
    testing::fill_tuned_database(a, env);
    ResultStore b((dir_ / "out" / "shard-1.db").string());
    testing::record_under_other_nvrtc(b, env, Shape{2048, 2048, 2048}, testing::kSeedTile);
  }
  const std::string merged = (dir_ / "merged.db").string();
  ASSERT_EQ(submit("DB=" + quoted(merged) + " ", "", "merge.sbatch").exit_code, 0);
  const std::int64_t runs = count(merged, "runs"), results = count(merged, "results");
  EXPECT_EQ(runs, 2);
  EXPECT_EQ(results, 4);
  ASSERT_EQ(submit("DB=" + quoted(merged) + " ", "", "merge.sbatch").exit_code, 0);
  EXPECT_EQ(count(merged, "runs"), runs);
  EXPECT_EQ(count(merged, "results"), results);
  EXPECT_EQ(count(merged, "kernels"), count((dir_ / "out" / "shard-0.db").string(), "kernels"));
}

}  // namespace
}  // namespace sgemm_tune
