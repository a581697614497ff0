// NVRTC compiles for an explicit architecture with no GPU present, so these run in CI.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "tuner/common/errors.h"
#include "tuner/compile/nvrtc_compiler.h"

namespace sgemm_tune {
namespace {

const SgemmTile kSeed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};

TEST(NvrtcCompile, SeedConfigurationForSm90) {
  const CompiledKernel k = compile_kernel(KernelSource::embedded(), CompileOptions{}, kSeed);
  EXPECT_EQ(k.name_expression, "sgemm_tune_kernels::sgemm_double_buffered<128,64,16,64,32,2,4,4,2,0,0>");
  EXPECT_EQ(k.lowered_name.rfind("_Z", 0), 0u) << k.lowered_name;
  ASSERT_GT(k.cubin.size(), 4u);
  EXPECT_EQ(k.cubin.substr(0, 4), std::string("\x7f" "ELF"));
  // 64 accumulators alone need 64 registers; __launch_bounds__(128) allows up to 255.
  EXPECT_GE(k.usage.registers, 64);
  EXPECT_LE(k.usage.registers, 255);
  EXPECT_FALSE(k.usage.spills());
  EXPECT_EQ(k.usage.static_smem_bytes, 0);  // all shared memory is dynamic
  EXPECT_NE(k.log.find("Used " + std::to_string(k.usage.registers) + " registers"), std::string::npos);
}

TEST(NvrtcCompile, SameSourceSameMachineCode) {
  // Emission rebuilds missing machine code and relies on getting the bytes that were timed.
  const CompiledKernel a = compile_kernel(KernelSource::embedded(), CompileOptions{}, kSeed);
  const CompiledKernel b = compile_kernel(KernelSource::embedded(), CompileOptions{}, kSeed);
  EXPECT_EQ(a.cubin, b.cubin);
  // Internal-linkage symbols carry a per-process suffix: none may reach the cubin.
  EXPECT_EQ(a.cubin.find("_INTERNAL_"), std::string::npos);
}

TEST(NvrtcCompile, ThreeStagesCompile) {
  SgemmTile t = kSeed;
  t.STAGES = 3;
  const CompiledKernel k = compile_kernel(KernelSource::embedded(), CompileOptions{}, t);
  EXPECT_GT(k.usage.registers, 0);
}

TEST(NvrtcCompile, PrefetchAndStreamKCompileWithoutSpills) {
  // The best structure of the 4096 space with both switches: two fragment sets and the
  // persistent loop must still fit in registers.
  const SgemmTile t{128, 256, 16, 32, 128, 4, 4, 4, 3, 1, 1};
  const CompiledKernel k = compile_kernel(KernelSource::embedded(), CompileOptions{}, t);
  EXPECT_EQ(k.name_expression, "sgemm_tune_kernels::sgemm_double_buffered<128,256,16,32,128,4,4,4,3,1,1>");
  EXPECT_GT(k.usage.registers, 128);
  EXPECT_LE(k.usage.registers, 255);
  EXPECT_EQ(k.usage.spill_store_bytes + k.usage.spill_load_bytes, 0);
}

TEST(NvrtcCompile, InvalidTileFailsTheKernelsOwnStaticAssert) {
  SgemmTile t = kSeed;
  t.WM = 48;  // 128 % 48 != 0
  try {
    compile_kernel(KernelSource::embedded(), CompileOptions{}, t);
    FAIL() << "compiled an invalid tile";
  } catch (const CompileError &e) {
    EXPECT_NE(std::string(e.what()).find("sgemm_double_buffered<128,64,16,48,32,2,4,4,2,0,0>"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("--gpu-architecture=sm_90"), std::string::npos);
    EXPECT_NE(e.log().find("invalid SGEMM tile configuration"), std::string::npos) << e.log();
  }
}

TEST(NvrtcCompile, BadOptionCarriesTheLog) {
  CompileOptions o;
  o.extra = {"--no-such-option"};
  try {
    compile_kernel(KernelSource::embedded(), o, kSeed);
    FAIL();
  } catch (const CompileError &e) {
    EXPECT_NE(std::string(e.what()).find("--no-such-option"), std::string::npos) << e.what();
  }
}

TEST(KernelSource, HashFollowsEveryCharacter) {
  const KernelSource embedded = KernelSource::embedded();
  const auto dir = std::filesystem::temp_directory_path() / "sgemm_tune_template_copy";
  std::filesystem::create_directories(dir);
  for (const auto &[name, text] : embedded.headers) std::ofstream(dir / name, std::ios::binary) << text;
  const KernelSource copy = KernelSource::from_directory(dir.string());
  EXPECT_EQ(copy.hash, embedded.hash);

  std::string text = embedded.headers[0].second;
  text += " ";
  std::ofstream(dir / embedded.headers[0].first, std::ios::binary) << text;
  EXPECT_NE(KernelSource::from_directory(dir.string()).hash, embedded.hash);
  std::filesystem::remove_all(dir);
}

TEST(KernelSource, ChangedTileRulesAreRefused) {
  const auto dir = std::filesystem::temp_directory_path() / "sgemm_tune_rules_copy";
  std::filesystem::create_directories(dir);
  for (const auto &[name, text] : KernelSource::embedded().headers)
    std::ofstream(dir / name, std::ios::binary) << text << (name == "sgemm_tile_rules.h" ? "\n" : "");
  try {
    KernelSource::from_directory(dir.string());
    FAIL() << "accepted rules that differ from the built-in ones";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("needs a rebuild"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(KernelSource, MissingDirectoryIsAUserError) {
  EXPECT_THROW(KernelSource::from_directory("/nonexistent/templates"), UserError);
}

TEST(Nvrtc, ReportsItsVersion) { EXPECT_NE(nvrtc_version().find('.'), std::string::npos); }

}  // namespace
}  // namespace sgemm_tune
