// tools/example, the program users start from, builds with nvcc against an emitted header
// that carries both kinds of entries (timed machine code, a tile compiled from source),
// exactly as the GPU test (test_gpu_header.cpp) builds it before running it. No GPU needed.
#include <filesystem>

#include <gtest/gtest.h>

#include "example_program.h"
#include "tuned_db_fixture.h"
#include "tuner/emit/header.h"

namespace sgemm_tune {
namespace {

TEST(ExampleBuild, BuildsAgainstAnEmittedHeader) {
  const auto dir = std::filesystem::temp_directory_path() / "sgemm_tune_example_build";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    ResultStore store((dir / "tune.db").string());
    testing::fill_tuned_database(store, testing::h200_environment());
    EmitOptions options;
    options.database_label = "tune.db";
    const EmittedHeader header = emit_header(store.database(), testing::h200_environment(), options);
    ASSERT_EQ(header.entries, 2u);
    ASSERT_EQ(header.with_code, 1u);
    write_file_atomically((dir / "sgemm_tuned.h").string(), header.text);
  }
  const testing::CommandOutput built =
      testing::build_example(dir.string(), "sm_90", (dir / "sgemm_tuned_example").string());
  EXPECT_EQ(built.exit_code, 0) << built.text;
  EXPECT_TRUE(std::filesystem::exists(dir / "sgemm_tuned_example"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sgemm_tune
