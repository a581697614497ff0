// tools/example, the program users start from, builds with nvcc against an emitted header
// that carries both kinds of entries (timed machine code, a tile compiled from source, each
// with its edge variant in the same form),
// exactly as the GPU test (test_gpu_header.cpp) builds it before running it; and the BLAS
// entry of such a header answers bad arguments without a GPU. No GPU needed.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>

#include <gtest/gtest.h>
#include <unistd.h>

#include "example_program.h"
#include "tuned_db_fixture.h"
#include "tuner/emit/header.h"

namespace sgemm_tune {
namespace {

// A folder of its own holding an emitted header with both kinds of entries: 4096^3 with the
// timed machine code; 1024^3 as if tuned under another NVRTC, which emit cannot compile
// again here, so that entry is compiled from source by nvcc.
std::filesystem::path folder_with_header(const std::string &name) {
  const auto dir = std::filesystem::temp_directory_path() / (name + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  ResultStore store((dir / "tune.db").string());
  const CurrentEnvironment env = testing::h200_environment();
  const std::int64_t run = testing::fill_tuned_database(store, env);
  testing::record_under_other_nvrtc(store, env, Shape{1024, 1024, 1024}, testing::kSeedTile);
  store.database().exec("DELETE FROM results WHERE m = 1024 AND run_id = " + std::to_string(run));
  const EmittedHeader header = testing::emit_into(dir, store, env, KernelSource::embedded());
  EXPECT_EQ(header.entries, 2u);
  EXPECT_EQ(header.with_code, 1u);
  // The 4096^3 entry's edge variant ships as machine code; the 1024^3 one's is compiled by
  // nvcc from source, as its timed kernel is.
  EXPECT_EQ(header.with_edges_code, 1u);
  return dir;
}

TEST(ExampleBuild, BuildsAgainstAnEmittedHeader) {
  const auto dir = folder_with_header("sgemm_tune_example_build");
  const testing::CommandOutput built = testing::build_example(
      dir.string(), "sm_90", (dir / "sgemm_tuned_example").string(), testing::peak_memory_binary());
  EXPECT_EQ(built.exit_code, 0) << built.text;
  EXPECT_TRUE(std::filesystem::exists(dir / "sgemm_tuned_example"));
  // The most memory one of nvcc's stages took. While the header's tables were const,
  // nvcc's front end took that for this header's one entry of machine code to be 1989 MB
  // (CUDA 13.0), against 345 MB without, and 10 GB for a workload tuning's twelve entries
  // (bench/results/2026-12-05-cpu-header-build-memory).
  const auto at = built.text.rfind("peak_memory_kb ");
  ASSERT_NE(at, std::string::npos) << built.text;
  const long peak_mb = std::stol(built.text.substr(at + 15)) / 1024;
  std::cout << "the largest of nvcc's stages took " << peak_mb << " MB\n";
  EXPECT_LT(peak_mb, 1000) << "building against the header took " << peak_mb << " MB in one of nvcc's stages";
  std::filesystem::remove_all(dir);
}

// The shapes benchmark, which runs only on a GPU, must still build here against what emit
// writes, and its host-side check of the cuBLAS mapping, and of its arguments, run without one.
TEST(ExampleBuild, ShapesBenchmarkBuildsAndChecksItsCublasMapping) {
  const auto dir = folder_with_header("sgemm_tune_bench_shapes_build");
  const std::string program = (dir / "bench_shapes").string();
  const testing::CommandOutput built = testing::build_bench_shapes(dir.string(), "sm_90", program);
  ASSERT_EQ(built.exit_code, 0) << built.text;
  const testing::CommandOutput self_test = testing::run_command(program + " --self-test --count 48");
  EXPECT_EQ(self_test.exit_code, 0) << self_test.text;
  EXPECT_NE(self_test.text.find(" 0 failed"), std::string::npos) << self_test.text;
  // A malformed --only list, a problem number past the set (48 random + 11), a timed beta
  // outside [-1, 1], a choice of problems with --self-test or --sweep, or graph timing where
  // nothing is timed (--verify-only, --self-test), is a usage error, answered before any GPU
  // is looked for.
  for (const char *bad : {" --only 0", " --only 3,x", " --only 3,", " --only ''", " --count 48 --only 2,60",
                          " --beta 2", " --beta nan", " --beta 0.5x", " --self-test --only 3",
                          " --sweep --beta 0.5", " --verify-only --self-test", " --verify-only --graphs",
                          " --graphs --self-test"}) {
    const testing::CommandOutput refused = testing::run_command(program + bad);
    EXPECT_EQ(refused.exit_code, 2) << bad << "\n" << refused.text;
  }
  // Graph timing where nothing is timed is refused by name, not by the missing GPU (which
  // also exits 2 here).
  for (const char *bad : {" --verify-only --graphs", " --graphs --self-test"}) {
    const testing::CommandOutput refused = testing::run_command(program + bad);
    EXPECT_NE(refused.text.find("--graphs says how to time"), std::string::npos) << bad << "\n" << refused.text;
  }
  // A problem list (--problems) in place of the generated sets: read and described by the
  // host-side check; each malformed line refused, naming the file and the line.
  const auto write = [&dir](const char *name, const char *text) {
    std::ofstream((dir / name).string()) << text;
    return (dir / name).string();
  };
  const std::string good = write("good.txt",
                                 "# a comment\n\nrow NN 1000 1000 1000\ncol TT 64 96 33 40 96 64 3  # padded, off\n");
  const testing::CommandOutput listed = testing::run_command(program + " --self-test --problems " + good);
  EXPECT_EQ(listed.exit_code, 0) << listed.text;
  EXPECT_NE(listed.text.find("problems: 2 listed (2 of the 8 layout/op pairs, 1 with padded leading dimensions, 1 at "
                             "an offset"),
            std::string::npos)
      << listed.text;
  const std::pair<const char *, const char *> bad_lists[] = {
      {"row NN 10 10 10\nrow NX 10 10 10\n", ":2: ops 'NX'"},
      {"diag NN 10 10 10\n", ":1: layout 'diag'"},
      {"row NN 10 10\n", ":1: 4 fields"},
      {"row NN 0 10 10\n", ":1: M '0'"},
      {"row NN 10 10x 10\n", ":1: N '10x'"},
      {"row NN 10 10 10 9 10 10\n", ":1: lda '9'"},
      {"row NN 10 10 10 99999999999 10 10\n", ":1: lda '99999999999'"},
      {"row NN 10 10 10 10 10\n", ":1: 7 fields"},
      {"row NN 10 10 10 10 10 10 4\n", ":1: offset '4'"},
      {"row NN 10 10 10 10 10 10 +\n", ":1: offset '+'"},
      {"row NN 10 10 10 10 10 10 -99999999999\n", ":1: offset '-99999999999'"},
      {"row NN 10 10 10 10 10 10 1 x\n", ":1: 10 fields"},
      {"# nothing\n", "no problems"}};
  for (const auto &[text, why] : bad_lists) {
    const std::string list = write("bad.txt", text);
    const testing::CommandOutput refused = testing::run_command(program + " --self-test --problems " + list);
    EXPECT_EQ(refused.exit_code, 2) << text << refused.text;
    EXPECT_NE(refused.text.find(why), std::string::npos) << text << refused.text;
  }
  const testing::CommandOutput missing = testing::run_command(program + " --problems " + (dir / "none.txt").string());
  EXPECT_EQ(missing.exit_code, 2) << missing.text;
  EXPECT_NE(missing.text.find("cannot be read"), std::string::npos) << missing.text;
  std::filesystem::remove_all(dir);
}

// The BLAS entry of a real emitted header, run here, where there may be no GPU at all: every
// leading dimension below CBLAS's minimum (of A, B and C, in each layout and op pair), every
// negative size and every null operand that would be read is cudaErrorInvalidValue, and an
// empty product is cudaSuccess, all answered before the GPU is touched.
TEST(ExampleBuild, BlasEntryRefusesBadArgumentsBeforeTouchingTheGpu) {
  const auto dir = folder_with_header("sgemm_tune_blas_invalid");
  const std::string program = (dir / "sgemm_blas_check").string();
  const testing::CommandOutput built = testing::build_blas_check(dir.string(), "sm_90", program);
  ASSERT_EQ(built.exit_code, 0) << built.text;
  // The measured dispatch asked for in the environment, as a program's user would.
  const testing::CommandOutput ran = testing::run_command("SGEMM_TUNE_DISPATCH=measured " + program + " invalid");
  std::cout << ran.text << std::flush;
  EXPECT_EQ(ran.exit_code, 0) << "a call was not answered as BLAS answers it";
  EXPECT_NE(ran.text.find("initial dispatch: measured\n"), std::string::npos);
  // (8 layout and op pairs x 12 calls, 2 empty products, 5 shorthand calls) x 2 dispatches.
  EXPECT_NE(ran.text.find("\n206 passed, 0 failed\n"), std::string::npos);
  EXPECT_NE(ran.text.find("release_workspaces: cudaSuccess\n"), std::string::npos);
  // Without it, or with a value the header does not know, the dispatch is predicted.
  for (const char *environment : {"env -u SGEMM_TUNE_DISPATCH ", "SGEMM_TUNE_DISPATCH=measure "}) {
    const testing::CommandOutput plain = testing::run_command(environment + program + " invalid");
    EXPECT_EQ(plain.exit_code, 0) << environment;
    EXPECT_NE(plain.text.find("initial dispatch: predicted\n"), std::string::npos) << environment;
  }
  for (const char *line : {"invalid-args row NN 3x5x7 lda=6 -> cudaErrorInvalidValue", "invalid-args row TN 3x5x7 lda=2",
                           "invalid-args col NN 3x5x7 lda=2", "invalid-args col TT 3x5x7 ldb=4",
                           "invalid-args col NT 3x5x7 ldc=2", "invalid-args row NT 3x5x7 ldb=6"})
    EXPECT_NE(ran.text.find(line), std::string::npos) << line;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sgemm_tune
