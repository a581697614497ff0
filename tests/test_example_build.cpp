// tools/example, the program users start from, builds with nvcc against an emitted header
// that carries both kinds of entries (timed machine code, a tile compiled from source),
// exactly as the GPU test (test_gpu_header.cpp) builds it before running it. No GPU needed.
#include <filesystem>

#include <gtest/gtest.h>
#include <unistd.h>

#include "example_program.h"
#include "tuned_db_fixture.h"
#include "tuner/emit/header.h"

namespace sgemm_tune {
namespace {

TEST(ExampleBuild, BuildsAgainstAnEmittedHeader) {
  const auto dir = std::filesystem::temp_directory_path() / ("sgemm_tune_example_build_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    ResultStore store((dir / "tune.db").string());
    const CurrentEnvironment env = testing::h200_environment();
    const std::int64_t run = testing::fill_tuned_database(store, env);
    // 1024^3 as if tuned under another NVRTC: emit cannot compile that code again here,
    // so that entry is compiled from source by nvcc.
    Fingerprint other = env.fingerprint_for(env.gpu_name, env.compute_capability);
    other.nvrtc_version = "12.0";
    const std::int64_t older = store.begin_run(testing::h200_provenance(other));
    store.record(older, testing::ok_row(Shape{1024, 1024, 1024}, testing::kSeedTile, 0.080, 0.070));
    store.database().exec("DELETE FROM results WHERE m = 1024 AND run_id = " + std::to_string(run));
    const KernelSource kernel = KernelSource::embedded();
    EmitOptions options;
    options.database_label = "tune.db";
    options.kernel = &kernel;
    const EmittedHeader header = emit_header(store.database(), env, options);
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
