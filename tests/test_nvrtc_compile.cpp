// NVRTC compiles for an explicit architecture with no GPU present, so these run in CI.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tuner/common/errors.h"
#include "sgemm_launch.h"
#include "tuner/compile/nvrtc_compiler.h"
#include "wide_tile_space.h"

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

TEST(NvrtcCompile, EdgeVariantCompilesWithoutSpills) {
  // The seed tile, and the 4096 space's best structure with PREFETCH and STREAMK (whose
  // edge kernels run data-parallel): guarded loads and stores must still fit in registers.
  for (const SgemmTile &t : {kSeed, SgemmTile{128, 256, 16, 32, 128, 4, 4, 4, 3, 1, 1}}) {
    const CompiledKernel k = compile_kernel(KernelSource::embedded(), CompileOptions{}, t, KernelVariant::edges);
    EXPECT_EQ(k.name_expression, "sgemm_tune_kernels::sgemm_double_buffered_edges<" + tile_arguments(t) + ">");
    EXPECT_NE(k.lowered_name.find("sgemm_double_buffered_edges"), std::string::npos) << k.lowered_name;
    EXPECT_LE(k.usage.registers, 255);
    EXPECT_EQ(k.usage.spill_store_bytes + k.usage.spill_load_bytes, 0) << describe_tile(t);
    // Its own program: the timed kernel's cubin holds the timed kernel alone.
    EXPECT_EQ(k.cubin.find("21sgemm_double_bufferedI"), std::string::npos);
  }
}

TEST(NvrtcCompile, EdgeKernelsCubinsHoldAKernelPerBodyNamedAsTheRunTimeDerivesThem) {
  // A header records the plain body's name alone; the run-time derives the other three with
  // edge_body_symbol. Each derived name must be in the cubin, spelt as NVRTC lowers it.
  for (const KernelVariant variant : {KernelVariant::edges, KernelVariant::any}) {
    const CompiledKernel k = compile_kernel(KernelSource::embedded(), CompileOptions{}, kSeed, variant);
    std::set<std::string> names;
    for (int body = 0; body < sgemm_tune_kernels::kEdgeBodies; ++body) {
      char name[512];
      ASSERT_TRUE(sgemm_tune_kernels::edge_body_symbol(k.lowered_name.c_str(), body, name, sizeof name)) << body;
      names.insert(name);
      EXPECT_NE(k.cubin.find(std::string(name) + '\0'), std::string::npos) << name;
      EXPECT_NE(k.log.find(name), std::string::npos) << "no ptxas report for " << name;
    }
    EXPECT_EQ(names.size(), 4u);
    EXPECT_TRUE(names.count(k.lowered_name));
  }
  const CompiledKernel edges = compile_kernel(KernelSource::embedded(), CompileOptions{}, kSeed, KernelVariant::edges);
  EXPECT_NE(edges.cubin.find("47sgemm_double_buffered_edges_transposed_a_narrowI"), std::string::npos);
  const CompiledKernel any = compile_kernel(KernelSource::embedded(), CompileOptions{}, kSeed, KernelVariant::any);
  EXPECT_NE(any.cubin.find("45sgemm_double_buffered_any_transposed_a_narrowI"), std::string::npos);
  // Each program holds its own variant's kernels alone.
  EXPECT_EQ(any.cubin.find("sgemm_double_buffered_edges"), std::string::npos);
}

TEST(NvrtcCompile, EdgeBodySymbolRefusesWhatItCannotDerive) {
  char name[512] = "unchanged";
  // The fast kernel's name is not the plain edge body's.
  const CompiledKernel fast = compile_kernel(KernelSource::embedded(), CompileOptions{}, kSeed);
  EXPECT_FALSE(sgemm_tune_kernels::edge_body_symbol(fast.lowered_name.c_str(), 1, name, sizeof name));
  EXPECT_STREQ(name, "");
  // A buffer too small for the derived name: refused, never cut short.
  const char *plain = "_ZN18sgemm_tune_kernels27sgemm_double_buffered_edgesILi128EEEviii";
  char small[40] = "unchanged";
  EXPECT_FALSE(sgemm_tune_kernels::edge_body_symbol(plain, 3, small, sizeof small));
  EXPECT_STREQ(small, "");
  ASSERT_TRUE(sgemm_tune_kernels::edge_body_symbol(plain, 2, name, sizeof name));
  EXPECT_STREQ(name, "_ZN18sgemm_tune_kernels34sgemm_double_buffered_edges_narrowILi128EEEviii");
  ASSERT_TRUE(sgemm_tune_kernels::edge_body_symbol("_ZN18sgemm_tune_kernels25sgemm_double_buffered_anyILi1EEEv", 1,
                                                   name, sizeof name));
  EXPECT_STREQ(name, "_ZN18sgemm_tune_kernels38sgemm_double_buffered_any_transposed_aILi1EEEv");
}

TEST(NvrtcCompile, KernelOfAnyOperandsCompiles) {
  // Its operand layout is read at run time; the seed tile fits without spilling.
  const CompiledKernel k = compile_kernel(KernelSource::embedded(), CompileOptions{}, kSeed, KernelVariant::any);
  EXPECT_EQ(k.name_expression, "sgemm_tune_kernels::sgemm_double_buffered_any<" + tile_arguments(kSeed) + ">");
  EXPECT_NE(k.lowered_name.find("sgemm_double_buffered_any"), std::string::npos) << k.lowered_name;
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

TEST(NvrtcCompile, TileRejectedOnlyByThePreparePassFailsToCompile) {
  // Every other rule holds: without the prepare_split rule this tile would reach NVRTC.
  const SgemmTile t{1, 128, 128, 1, 128, 1, 1, 4, 2, 0, 0};
  ASSERT_EQ(sgemm_tune_kernels::check_tile(t), TileRule::prepare_split);
  try {
    compile_every_kernel(KernelSource::embedded(), CompileOptions{}, t);
    FAIL() << "compiled a tile whose rows the prepare pass cannot split";
  } catch (const CompileError &e) {
    EXPECT_NE(e.log().find("the prepare pass splits a tile's rows evenly"), std::string::npos) << e.log();
  }
}

// What NVRTC's time for a tile grows with, roughly (2 to 4 ms a unit): the FFMAs and
// fragment loads of the unrolled K steps (with more accumulators than registers, ptxas works
// hardest there), and the prologue's STAGES - 1 loads of the A and B tiles.
long long compile_cost(const SgemmTile &t) {
  const int threads = sgemm_tune_kernels::tile_threads(t);
  const int wmiter = sgemm_tune_kernels::tile_warp_m_iterations(t);
  const long long step = t.WM * t.WN / 32 + wmiter * t.TM + t.WNITER * t.TN;
  const long long a_passes = 1LL * t.BM * t.BK / threads / 4, b_passes = 1LL * t.BK * t.BN / threads / 4;
  return (t.BK + 16) * step + t.STAGES * (5 * a_passes + b_passes);
}

// A deterministic, varied sample of the tiles the rules accept in the wide space: each pick
// is the tile that shows the most parameter values and thread counts not shown yet (the
// cheapest to compile, then the first enumerated, on a tie), then tiles spread evenly over
// the rest. The pool leaves out the tiles that take NVRTC more than a few seconds.
std::vector<SgemmTile> varied_accepted_sample(std::size_t count) {
  std::vector<SgemmTile> pool;
  for_each_wide_tile([&](const SgemmTile &t) {
    if (sgemm_tune_kernels::check_tile(t) == TileRule::ok && compile_cost(t) <= 1500) pool.push_back(t);
  });
  auto features = [](const SgemmTile &t) {
    std::vector<std::pair<int, int>> f;
    for (std::size_t p = 0; p < kTileParameters.size(); ++p) f.emplace_back(static_cast<int>(p), tile_parameter(t, p));
    f.emplace_back(-1, sgemm_tune_kernels::tile_threads(t));
    return f;
  };
  std::set<std::pair<int, int>> shown;
  std::vector<bool> taken(pool.size());
  std::vector<SgemmTile> sample;
  while (sample.size() < count && sample.size() < pool.size()) {
    std::size_t best = pool.size();
    int best_new = 0;
    long long best_cost = 0;
    for (std::size_t i = 0; i < pool.size(); ++i) {
      if (taken[i]) continue;
      int fresh = 0;
      for (const auto &f : features(pool[i])) fresh += !shown.count(f);
      if (fresh == 0 || fresh < best_new) continue;
      const long long cost = compile_cost(pool[i]);
      if (fresh > best_new || cost < best_cost) best = i, best_new = fresh, best_cost = cost;
    }
    if (best == pool.size()) {  // everything is shown: spread the rest over the pool
      best = sample.size() * 7919 % pool.size();
      while (taken[best]) best = (best + 1) % pool.size();
    }
    taken[best] = true;
    for (const auto &f : features(pool[best])) shown.insert(f);
    sample.push_back(pool[best]);
  }
  return sample;
}

// Under AddressSanitizer NVRTC's own allocations go through the sanitizer's allocator and
// every compilation takes several times as long: 36 tiles ran past ctest's 600 s there on a
// busy two-core machine. The sample's first 12, which the greedy choice fills with the most
// features, keep the sanitized run within its limit; the plain build compiles all 36.
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kRulesSample = 12;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr std::size_t kRulesSample = 12;
#else
constexpr std::size_t kRulesSample = 36;
#endif
#else
constexpr std::size_t kRulesSample = 36;
#endif

TEST(NvrtcCompile, TilesTheRulesAcceptCompile) {
  const std::vector<SgemmTile> sample = varied_accepted_sample(kRulesSample);
  ASSERT_EQ(sample.size(), kRulesSample);
  const KernelSource source = KernelSource::embedded();
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::vector<std::string> failures;
  std::vector<std::pair<double, std::string>> times;
  auto work = [&] {
    for (std::size_t i; (i = next++) < sample.size();) {
      const auto start = std::chrono::steady_clock::now();
      std::string failure;
      try {
        compile_every_kernel(source, CompileOptions{}, sample[i]);
      } catch (const CompileError &e) {
        failure = describe_tile(sample[i]) + ": " + e.what() + "\n" + e.log().substr(0, 2000);
      }
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::lock_guard<std::mutex> lock(mutex);
      if (!failure.empty()) failures.push_back(failure);
      times.emplace_back(s, describe_tile(sample[i]));
    }
  };
  std::thread helper(work);
  work();
  helper.join();
  for (const auto &f : failures) ADD_FAILURE() << f;
  std::sort(times.rbegin(), times.rend());
  std::printf("%zu tiles, all three kernels each; slowest %.1f s (%s)\n", times.size(), times.front().first,
              times.front().second.c_str());
}

// ptxas's register usage level 10, not its default 5, is one of the fixed options, and a
// level given as an extra option replaces it. 128x128x32 with 32 x 128 warps is a tile the
// level moves (249 registers at 10, 228 at 5 with CUDA 13.0; another toolkit may allocate
// otherwise).
TEST(NvrtcCompile, RegisterUsageLevelIsTenUnlessAnExtraOptionSaysOtherwise) {
  if (std::stoi(nvrtc_version()) < 13) GTEST_SKIP() << "NVRTC " << nvrtc_version() << ": the level is given from 13 on";
  const SgemmTile t{128, 128, 32, 32, 128, 4, 8, 4, 2, 0, 1};
  const auto registers = [&](std::vector<std::string> extra) {
    CompileOptions o;
    o.extra = std::move(extra);
    return compile_kernel(KernelSource::embedded(), o, t).usage.registers;
  };
  const int by_default = registers({});
  EXPECT_EQ(by_default, registers({"--ptxas-options=--register-usage-level=10"}));
  EXPECT_NE(by_default, registers({"--ptxas-options=--register-usage-level=5"}));
  const std::string options = CompileOptions{}.to_string();
  EXPECT_NE(options.find("--ptxas-options=--register-usage-level=10"), std::string::npos) << options;
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
