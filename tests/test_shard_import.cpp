// Splitting a search across machines (--shard I/N) and merging what they recorded
// (import of another database): every candidate in exactly one shard, the union of the
// shards' dry runs equal to the unsharded one, and a merge that, done twice, adds nothing.
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "small_dry_run.h"
#include "test_paths.h"
#include "tuned_db_fixture.h"

#include "tuner/common/errors.h"
#include "tuner/pipeline/tune.h"
#include "tuner/record/database_file.h"
#include "tuner/space/enumerate.h"

namespace sgemm_tune {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string &name) {
  const fs::path dir = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::int64_t count(Database &db, const std::string &table) {
  Statement st = db.prepare("SELECT count(*) FROM " + table);
  st.step();
  return st.column_int(0);
}

std::string file_bytes(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(Shard, ParsesIOverN) {
  EXPECT_EQ(parse_shard("0/1").count, 1u);
  EXPECT_EQ(parse_shard("3/4").index, 3u);
  for (const char *bad : {"", "4/4", "1", "-1/4", "1/0", "a/b", "1/4/", " 1/4", "1/70000", "9999999/1"})
    EXPECT_THROW(parse_shard(bad), UserError) << bad;
}

TEST(Shard, EveryCandidateIsInExactlyOneShard) {
  const SearchSpace space = load_search_space(testing::source_dir() + "/search_spaces/4096.json");
  const std::vector<SgemmTile> all = enumerate_candidates(space).candidates;
  for (const std::size_t n : {1u, 2u, 3u, 8u}) {
    std::vector<std::size_t> sizes(n, 0);
    for (const SgemmTile &t : all) {
      std::size_t owners = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (in_shard(t, Shard{i, n})) ++owners, ++sizes[i];
      ASSERT_EQ(owners, 1u) << describe_tile(t);
    }
    for (const std::size_t s : sizes) EXPECT_GT(s, all.size() / n * 8 / 10) << n << " shards";  // balanced
  }
}

TEST(Shard, TheShardsDryRunsAddUpToTheUnshardedOne) {
  TuneOptions o = testing::small_dry_run();
  const TuneReport whole = run_tuning(o);
  std::map<SgemmTile, int> seen;
  std::size_t candidates = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    o.shard = Shard{i, 3};
    const TuneReport part = run_tuning(o);
    candidates += part.counts.candidates;
    for (const SurvivorInfo &s : part.survivors) ++seen[s.tile];
  }
  EXPECT_EQ(candidates, whole.counts.candidates);
  ASSERT_EQ(seen.size(), whole.survivors.size());
  for (const SurvivorInfo &s : whole.survivors) EXPECT_EQ(seen[s.tile], 1) << describe_tile(s.tile);
}

TEST(ImportDatabase, MergesAnotherDatabaseOnceKeepingItsRuns) {
  const fs::path dir = fresh_dir("sgemm_tune_import_db");
  const std::string theirs = (dir / "theirs.db").string(), ours = (dir / "ours.db").string();
  const CurrentEnvironment env = testing::h200_environment();
  {
    ResultStore store(theirs);
    testing::fill_tuned_database(store, env);
    testing::record_under_other_nvrtc(store, env, Shape{2048, 2048, 2048}, testing::kSeedTile);
  }
  const std::string before = file_bytes(theirs);
  ResultStore store(ours);
  const ImportSummary first = import_database_file(store.database(), theirs, nullptr);
  EXPECT_EQ(first.runs_added, 2u);
  EXPECT_EQ(first.results_added, 4u);
  const ImportSummary second = import_database_file(store.database(), theirs, nullptr);
  EXPECT_EQ(second.runs_added, 0u);
  EXPECT_EQ(second.runs_already_present, 2u);
  EXPECT_EQ(second.results_added, 0u);
  EXPECT_EQ(count(store.database(), "runs"), 2);
  EXPECT_EQ(count(store.database(), "results"), 4);
  EXPECT_EQ(file_bytes(theirs), before);  // read, never written

  // Fingerprints and history come across as recorded.
  Database source = Database::open(theirs, false);
  Statement a = source.prepare("SELECT uid, fingerprint, status, started_at, command FROM runs ORDER BY uid");
  Statement b = store.database().prepare("SELECT uid, fingerprint, status, started_at, command FROM runs ORDER BY uid");
  while (a.step()) {
    ASSERT_TRUE(b.step());
    for (const char *c : {"uid", "fingerprint", "status", "started_at", "command"})
      EXPECT_EQ(a.column_text(c), b.column_text(c)) << c;
  }
  EXPECT_FALSE(b.step());
  fs::remove_all(dir);
}

TEST(ImportDatabase, ADatabaseFromElsewhereIsCheckedLikeAnExport) {
  const fs::path dir = fresh_dir("sgemm_tune_import_hostile");
  const std::string theirs = (dir / "theirs.db").string(), ours = (dir / "ours.db").string();
  {
    ResultStore store(theirs);
    testing::fill_tuned_database(store, testing::h200_environment());
    store.database().exec("UPDATE results SET bm = 100 WHERE id = 1");  // breaks the validity rules
  }
  ResultStore store(ours);
  try {
    import_database_file(store.database(), theirs, nullptr);
    ADD_FAILURE() << "a row breaking the validity rules was imported";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find(theirs), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("results[0]"), std::string::npos) << e.what();
  }
  EXPECT_EQ(count(store.database(), "runs"), 0);

  const std::string fake = (dir / "fake.db").string();
  std::ofstream(fake, std::ios::binary) << std::string("SQLite format 3\0", 16) << std::string(4096, 'x');
  EXPECT_TRUE(is_sqlite_file(fake));
  EXPECT_THROW(import_database_file(store.database(), fake, nullptr), UserError);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sgemm_tune
