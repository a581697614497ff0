#include <climits>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "wide_tile_space.h"
#include "tuner/space/tile.h"

namespace sgemm_tune {
namespace {

using sgemm_tune_kernels::check_tile;
using sgemm_tune_kernels::shape_fits_tile;

TEST(TileRules, TheSeedConfigurationIsValid) {
  const SgemmTile seed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
  EXPECT_EQ(check_tile(seed), TileRule::ok);
  EXPECT_EQ(sgemm_tune_kernels::tile_threads(seed), 128);
  EXPECT_EQ(sgemm_tune_kernels::tile_warp_m_iterations(seed), 2);
  // A: 16 K rows of 128 floats, the 3 groups of 4 after the first shifted by 8 floats each.
  EXPECT_EQ(sgemm_tune_kernels::tile_a_stage_floats(seed), 16 * 128 + 3 * 8);
  EXPECT_EQ(sgemm_tune_kernels::tile_smem_bytes(seed), 2 * (16 * 128 + 3 * 8 + 16 * 64) * 4);
  // 64 accumulators, 8 + 8 fragment floats, 4 float4 A-prefetch registers (16 floats).
  EXPECT_EQ(sgemm_tune_kernels::tile_live_floats(seed), 64 + 8 + 8 + 16);
  // Register double-buffering keeps two sets of fragments.
  SgemmTile prefetch = seed;
  prefetch.PREFETCH = 1;
  EXPECT_EQ(sgemm_tune_kernels::tile_live_floats(prefetch), 64 + 2 * (8 + 8) + 16);
}

// The transposed A layout: every (row, k) in its own place inside the stage, every K row
// 16-byte aligned (a thread's TM A values are TM / 4 vector loads), and each store
// instruction of the kernel's transposing copy (lane l holds row l / (BK / 4) and
// K indices 4 * (l % (BK / 4)) + j) hitting 32 different banks.
TEST(TileRules, TheALayoutIsAlignedAndItsStoresAreConflictFree) {
  for (int bk : {4, 8, 16, 32}) {
    for (int bm : {32, 64, 128, 256}) {
      SCOPED_TRACE("BK " + std::to_string(bk) + ", BM " + std::to_string(bm));
      const SgemmTile t{bm, 64, bk, 32, 64, 1, 4, 4, 2, 0, 0};
      const int stage = sgemm_tune_kernels::tile_a_stage_floats(t);
      EXPECT_LE(stage, bk * (bm + (32 / bk) % 8)) << "larger than the seed's padded layout";
      EXPECT_EQ(stage % 4, 0);
      std::vector<int> owner(stage, -1);
      for (int k = 0; k < bk; ++k) {
        EXPECT_EQ(sgemm_tune_kernels::tile_a_offset(t, k, 0) % 4, 0) << "K row " << k << " is not 16-byte aligned";
        for (int row = 0; row < bm; ++row) {
          const int at = sgemm_tune_kernels::tile_a_offset(t, k, row);
          ASSERT_GE(at, 0);
          ASSERT_LT(at, stage);
          EXPECT_EQ(owner[at], -1) << "(" << row << ", " << k << ") overlaps another element";
          owner[at] = k * bm + row;
        }
      }
      const int groups = bk / 4;
      for (int j = 0; j < 4; ++j) {
        std::set<int> banks;
        for (int lane = 0; lane < 32; ++lane)
          banks.insert(sgemm_tune_kernels::tile_a_offset(t, 4 * (lane % groups) + j, lane / groups) % 32);
        EXPECT_EQ(banks.size(), 32u) << "store of element " << j << " conflicts";
      }
    }
  }
}

TEST(TileRules, EachRuleIsEnforced) {
  const SgemmTile seed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
  auto with = [&](auto change) {
    SgemmTile t = seed;
    change(t);
    return check_tile(t);
  };
  EXPECT_EQ(with([](SgemmTile &t) { t.TM = 0; }), TileRule::non_positive);
  EXPECT_EQ(with([](SgemmTile &t) { t.PREFETCH = 2; }), TileRule::switch_value);
  EXPECT_EQ(with([](SgemmTile &t) { t.STREAMK = -1; }), TileRule::switch_value);
  EXPECT_EQ(with([](SgemmTile &t) { t.PREFETCH = 1; t.STREAMK = 1; }), TileRule::ok);
  EXPECT_EQ(with([](SgemmTile &t) { t.STAGES = 1; }), TileRule::too_few_stages);
  EXPECT_EQ(with([](SgemmTile &t) { t.WM = 48; }), TileRule::warp_tile_split);
  EXPECT_EQ(with([](SgemmTile &t) { t.BM = 4096; t.BN = 256; }), TileRule::thread_count);
  EXPECT_EQ(with([](SgemmTile &t) { t.WM = 32; t.WN = 32; t.WNITER = 4; t.TM = 8; t.TN = 8; }),
            TileRule::warp_iterations);
  // 64x32 warp tile, WNITER 4: sub-tiles 8 wide cannot hold a thread tile 16 wide.
  EXPECT_EQ(with([](SgemmTile &t) { t.WNITER = 4; t.TN = 16; t.TM = 1; }), TileRule::warp_subtile);
  EXPECT_EQ(with([](SgemmTile &t) { t.BK = 6; }), TileRule::vector_width);
  EXPECT_EQ(with([](SgemmTile &t) { t.TN = 2; t.TM = 8; }), TileRule::vector_width);
  // Three warps of 2 x 384: valid but for BM = 6, whose rows of a transposed A's stage
  // would not start 16-byte aligned.
  EXPECT_EQ(check_tile(SgemmTile{6, 384, 64, 2, 384, 6, 1, 4, 2, 0, 0}), TileRule::a_stage_rows);
  EXPECT_EQ(check_tile(SgemmTile{8, 64, 64, 2, 64, 1, 1, 4, 2, 0, 0}), TileRule::ok);
  // 128 threads load a 64-wide B row as 16 float4: 8 rows a pass, but BK = 4 has only 4.
  EXPECT_EQ(with([](SgemmTile &t) { t.BK = 4; }), TileRule::b_load_mapping);
  // 256 threads, BK 8: 2 float4 per A row, 128 rows a pass; BM 64 has fewer rows.
  EXPECT_EQ(check_tile(SgemmTile{64, 256, 8, 32, 64, 2, 4, 4, 2, 0, 0}), TileRule::a_load_mapping);
}

TEST(TileRules, TooLargeForIntArithmetic) {
  const SgemmTile seed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
  // The deepest pipeline whose shared memory still fits in an int, and one stage more.
  const long long stage = sgemm_tune_kernels::tile_a_stage_floats(seed) + sgemm_tune_kernels::tile_b_stage_floats(seed);
  SgemmTile deepest = seed;
  deepest.STAGES = static_cast<int>(INT_MAX / 4 / stage);
  EXPECT_EQ(check_tile(deepest), TileRule::ok);
  EXPECT_EQ(sgemm_tune_kernels::tile_smem_bytes(deepest), deepest.STAGES * stage * 4);
  SgemmTile deeper = deepest;
  ++deeper.STAGES;
  EXPECT_EQ(check_tile(deeper), TileRule::too_large);
  SgemmTile wide = seed;
  wide.BM = wide.BN = 1 << 16;  // BM*BN = 2^32, though the shared memory of BK 4 would fit
  wide.BK = 4;
  EXPECT_EQ(check_tile(wide), TileRule::too_large);
  SgemmTile deep_k = seed;
  deep_k.BK = 1 << 28;
  EXPECT_EQ(check_tile(deep_k), TileRule::too_large);
}

TEST(TileRules, ThePreparePassNeedsAnEvenBlockTile) {
  // The example: one row per block, and three; every other rule holds for both. The
  // prepare pass is instantiated with every kernel, so STREAMK = 0 does not help.
  EXPECT_EQ(check_tile(SgemmTile{1, 128, 128, 1, 128, 1, 1, 4, 2, 0, 0}), TileRule::prepare_split);
  EXPECT_EQ(check_tile(SgemmTile{3, 128, 128, 3, 128, 1, 3, 4, 2, 0, 1}), TileRule::prepare_split);
  // Two rows pass the prepare pass's rule; a transposed A's stage then needs four.
  EXPECT_EQ(check_tile(SgemmTile{2, 128, 128, 2, 128, 1, 2, 4, 2, 0, 1}), TileRule::a_stage_rows);
  EXPECT_EQ(check_tile(SgemmTile{4, 128, 128, 4, 128, 1, 4, 4, 2, 0, 1}), TileRule::ok);
}

// Every field at extremes of int, alone, in pairs and at random: check_tile and the
// quantities a constraint may name must answer without overflowing (UBSan in CI aborts on
// signed overflow), since imported and hand-written tiles can hold anything.
TEST(TileRules, AnyIntInputIsSafe) {
  const std::vector<int> extremes = {INT_MIN, INT_MIN + 1, -1, 0, 1, 2, 3, 4, 5, 32, 1024, 65535, 65536,
                                     1 << 20, 1 << 30, INT_MAX - 1, INT_MAX};
  const SgemmTile seed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
  std::map<TileRule, int> seen;
  auto judge = [&](const SgemmTile &t) {
    const TileRule rule = check_tile(t);
    ++seen[rule];
    (void)sgemm_tune_kernels::tile_threads(t);
    (void)tile_quantity(t, "THREADS");
    (void)tile_quantity(t, "SMEM_BYTES");
    (void)shape_fits_tile(t, INT_MAX, INT_MAX, INT_MAX);
    (void)shape_fits_tile(t, 1LL << 40, 4096, 4096);
    if (rule != TileRule::ok) return;
    // What an accepted tile's helpers give is then in range.
    EXPECT_GE(sgemm_tune_kernels::tile_smem_bytes(t), 0) << describe_tile(t);
    EXPECT_GT(sgemm_tune_kernels::tile_live_floats(t), 0) << describe_tile(t);
  };
  SgemmTile all_max{INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX};
  EXPECT_EQ(check_tile(all_max), TileRule::switch_value);
  all_max.PREFETCH = all_max.STREAMK = 0;
  EXPECT_EQ(check_tile(all_max), TileRule::too_large);
  const SgemmTile all_min{INT_MIN, INT_MIN, INT_MIN, INT_MIN, INT_MIN, INT_MIN, INT_MIN, INT_MIN, INT_MIN, INT_MIN, INT_MIN};
  EXPECT_EQ(check_tile(all_min), TileRule::non_positive);
  for (std::size_t p = 0; p < kTileParameters.size(); ++p)
    for (std::size_t q = p; q < kTileParameters.size(); ++q)
      for (int a : extremes)
        for (int b : extremes) {
          SgemmTile t = seed;
          set_tile_parameter(t, p, a);
          set_tile_parameter(t, q, b);
          judge(t);
        }
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 200000; ++i) {
    SgemmTile t{};
    for (std::size_t p = 0; p < kTileParameters.size(); ++p) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const auto pick = static_cast<std::size_t>(state >> 33);
      set_tile_parameter(t, p, pick % 2 ? extremes[pick / 2 % extremes.size()]
                                        : kWideTileValues[pick / 2 % kWideTileValues.size()]);
    }
    judge(t);
  }
  EXPECT_GT(seen[TileRule::too_large], 0);
  EXPECT_GT(seen[TileRule::ok], 0);
}

// What the kernels compute from a tile, written out from their index arithmetic rather than
// from the rules: the arrays they declare, and which element each thread's loads, copies and
// stores touch. For a tile the rules accept every array is non-empty, every division exact,
// and each element of the A, B and C tiles is touched exactly once by each step.
std::string kernel_need_violated(const SgemmTile &t, bool simulate) {
  const int threads = sgemm_tune_kernels::tile_threads(t);
  if (threads < 32 || threads > 1024 || threads % 32) return "threads " + std::to_string(threads);
  const int wmiter = sgemm_tune_kernels::tile_warp_m_iterations(t);
  if (wmiter < 1) return "WMITER < 1";
  const int wsubm = t.WM / wmiter, wsubn = t.WN / t.WNITER;
  if (wsubm * wmiter != t.WM || wsubn * t.WNITER != t.WN) return "warp sub-tiles do not split the warp tile";
  if (wsubm % t.TM || wsubn % t.TN || (wsubm / t.TM) * (wsubn / t.TN) != 32) return "lanes do not tile a sub-tile";
  if (t.BK % 4 || t.TN % 4 || t.BN % 4) return "float4 access misaligned";
  const int row_stride_a = threads * 4 / t.BK, row_stride_b = threads / (t.BN / 4);
  if (row_stride_a * (t.BK / 4) != threads || row_stride_a < 1 || t.BM % row_stride_a) return "A passes";
  if (row_stride_b * (t.BN / 4) != threads || row_stride_b < 1 || t.BK % row_stride_b) return "B passes";
  if (t.BM % sgemm_tune_kernels::kStreamKPreparePass) return "prepare rows";
  if (t.BM % 4) return "a transposed A's float4 copies misaligned in the stage";
  const long double smem = static_cast<long double>(t.STAGES) * (static_cast<long double>(t.BK) * (t.BM + t.BN) + 128) * 4;
  if (smem > INT_MAX || static_cast<long double>(t.BM) * t.BN > INT_MAX) return "int range";
  if (sgemm_tune_kernels::tile_a_stage_floats(t) % 4) return "A stage breaks cp.async alignment of the B stages";
  if (!simulate) return "";

  auto once = [](std::vector<int> &hits, const char *what) -> std::string {
    for (int h : hits)
      if (h != 1) return std::string(what) + " touches an element " + std::to_string(h) + " times";
    return "";
  };
  std::vector<int> a(t.BM * t.BK), b(t.BK * t.BN), c(t.BM * t.BN), prep(t.BM * t.BN);
  const int a_stage = static_cast<int>(sgemm_tune_kernels::tile_a_stage_floats(t));
  std::vector<int> a_smem(a_stage);
  for (int tid = 0; tid < threads; ++tid) {
    for (int pass = 0; pass < t.BM / row_stride_a; ++pass)
      for (int j = 0; j < 4; ++j) {
        const int row = tid / (t.BK / 4) + pass * row_stride_a, k = tid % (t.BK / 4) * 4 + j;
        ++a[row * t.BK + k];
        const int at = sgemm_tune_kernels::tile_a_offset(t, k, row);
        if (at < 0 || at >= a_stage) return "A offset outside its stage";
        ++a_smem[at];
      }
    for (int pass = 0; pass < t.BK / row_stride_b; ++pass)
      for (int j = 0; j < 4; ++j) ++b[(tid / (t.BN / 4) + pass * row_stride_b) * t.BN + tid % (t.BN / 4) * 4 + j];
    const int warp = tid / 32, lane = tid % 32;
    const int warp_row = warp / (t.BN / t.WN), warp_col = warp % (t.BN / t.WN);
    const int row_in = lane / (wsubn / t.TN), col_in = lane % (wsubn / t.TN);
    for (int sr = 0; sr < wmiter; ++sr)
      for (int sc = 0; sc < t.WNITER; ++sc)
        for (int m = 0; m < t.TM; ++m)
          for (int n = 0; n < t.TN; ++n)
            ++c[(warp_row * t.WM + sr * wsubm + row_in * t.TM + m) * t.BN + warp_col * t.WN + sc * wsubn +
                col_in * t.TN + n];
  }
  const int rows = t.BM / sgemm_tune_kernels::kStreamKPreparePass;
  for (int z = 0; z < sgemm_tune_kernels::kStreamKPreparePass; ++z)
    for (int i = 0; i < rows * (t.BN / 4); ++i)
      for (int j = 0; j < 4; ++j) ++prep[(z * rows + i / (t.BN / 4)) * t.BN + i % (t.BN / 4) * 4 + j];
  for (auto *check : {&a, &b, &c, &prep}) {
    const std::string e = once(*check, check == &a ? "the A load" : check == &b ? "the B copy"
                                                   : check == &c ? "the epilogue" : "the prepare pass");
    if (!e.empty()) return e;
  }
  for (int h : a_smem)
    if (h > 1) return "two A elements share a shared-memory slot";
  return "";
}

TEST(TileRules, AcceptedTilesOfAWideSpaceMeetWhatTheKernelsNeed) {
  std::map<TileRule, long long> seen;
  long long accepted = 0, simulated = 0;
  for_each_wide_tile([&](const SgemmTile &t) {
    const TileRule rule = check_tile(t);
    ++seen[rule];
    if (rule != TileRule::ok) return;
    // Simulating every thread of all 400,000 accepted tiles takes minutes; one in 401 (a
    // prime, so that the picks do not fall in step with the loops) takes a second.
    const bool simulate = accepted++ % 401 == 0;
    simulated += simulate;
    const std::string need = kernel_need_violated(t, simulate);
    EXPECT_EQ(need, "") << describe_tile(t);
  });
  EXPECT_GT(accepted, 100000);
  EXPECT_GT(simulated, 500);
  // The space reaches every rule that sizes between 1 and 256 can break.
  for (TileRule r : {TileRule::too_few_stages, TileRule::warp_tile_split, TileRule::thread_count,
                     TileRule::warp_iterations, TileRule::warp_subtile, TileRule::vector_width,
                     TileRule::a_load_mapping, TileRule::b_load_mapping, TileRule::prepare_split,
                     TileRule::a_stage_rows})
    EXPECT_GT(seen[r], 0) << tile_rule_code(r);
}

TEST(TileRules, ShapeMustDivideIntoTiles) {
  const SgemmTile seed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
  EXPECT_TRUE(shape_fits_tile(seed, 4096, 4096, 4096));
  EXPECT_FALSE(shape_fits_tile(seed, 4096 + 64, 4096, 4096));
  EXPECT_FALSE(shape_fits_tile(seed, 4096, 4096 + 32, 4096));
  EXPECT_FALSE(shape_fits_tile(seed, 4096, 4096, 4096 + 8));
  EXPECT_FALSE(shape_fits_tile(seed, 0, 4096, 4096));
}

TEST(TileRules, HugeShapesTakeTheCheckedKernel) {
  // The fast kernel's int offsets within a tile's rows: BM*K, BK*N and WM*N.
  const SgemmTile seed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};
  EXPECT_TRUE(shape_fits_tile(seed, 128, 64, (1 << 24) - 16));
  EXPECT_FALSE(shape_fits_tile(seed, 128, 64, 1 << 24));  // 128 * K = 2^31
  EXPECT_TRUE(shape_fits_tile(seed, 128, (1 << 25) - 64, 16));
  EXPECT_FALSE(shape_fits_tile(seed, 128, 1 << 25, 16));  // WM * N = 2^31
  EXPECT_FALSE(shape_fits_tile(seed, 1LL << 32, 64, 16));
  // A data-parallel grid holds at most 65535 block rows; a stream-K grid is one-dimensional.
  EXPECT_TRUE(shape_fits_tile(seed, 128LL * 65535, 64, 16));
  EXPECT_FALSE(shape_fits_tile(seed, 128LL * 65536, 64, 16));
  SgemmTile stream_k = seed;
  stream_k.STREAMK = 1;
  EXPECT_TRUE(shape_fits_tile(stream_k, 128LL * 65536, 64, 16));
}

TEST(TileRules, CodesAreStableAndDistinct) {
  // Recorded in databases: these strings must never change.
  const std::vector<std::pair<TileRule, std::string>> codes = {
      {TileRule::ok, "ok"},
      {TileRule::non_positive, "non_positive"},
      {TileRule::switch_value, "switch_value"},
      {TileRule::too_few_stages, "too_few_stages"},
      {TileRule::too_large, "too_large"},
      {TileRule::warp_tile_split, "warp_tile_split"},
      {TileRule::thread_count, "thread_count"},
      {TileRule::warp_iterations, "warp_iterations"},
      {TileRule::warp_subtile, "warp_subtile"},
      {TileRule::vector_width, "vector_width"},
      {TileRule::a_load_mapping, "a_load_mapping"},
      {TileRule::b_load_mapping, "b_load_mapping"},
      {TileRule::prepare_split, "prepare_split"},
      {TileRule::a_stage_rows, "a_stage_rows"}};
  std::set<std::string> distinct, texts;
  for (const auto &[rule, code] : codes) {
    EXPECT_EQ(tile_rule_code(rule), code);
    distinct.insert(std::string(tile_rule_code(rule)));
    texts.insert(sgemm_tune_kernels::tile_rule_text(rule));
    EXPECT_STRNE(sgemm_tune_kernels::tile_rule_text(rule), "unknown rule");
  }
  EXPECT_EQ(distinct.size(), codes.size());
  EXPECT_EQ(texts.size(), codes.size());
}

}  // namespace
}  // namespace sgemm_tune
