// The base of the tests that need a GPU: each skips, saying so, on a machine without a
// usable one, and otherwise gets a fresh folder of its own, removed afterwards.
#pragma once

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "example_program.h"
#include "tuner/gpu/device_info.h"

namespace sgemm_tune::testing {

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (gpu_count(&why) == 0) GTEST_SKIP() << "no usable GPU (" << why << "): GPU tests skipped";
    dir_ = std::filesystem::temp_directory_path() /
           ("sgemm_tune_gpu_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  std::filesystem::path dir_;
};

// A GPU test that also builds a program with nvcc: skips, saying so, without one.
class GpuProgramTest : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    if (run_command(nvcc() + " --version").exit_code != 0)
      GTEST_SKIP() << "no nvcc at " << nvcc() << " to compile the emitted header: set SGEMM_TUNE_NVCC";
  }
};

}  // namespace sgemm_tune::testing
