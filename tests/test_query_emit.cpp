// best, stale, emit, export and import against a real database, without a GPU.
#include <algorithm>
#include <array>
#include <set>
#include <vector>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "example_program.h"
#include "header_images.h"
#include "sgemm_tuned_select.h"
#include "test_paths.h"
#include "tuned_db_fixture.h"
#include "tuner/common/errors.h"
#include "tuner/emit/header.h"
#include "tuner/record/exchange.h"

namespace sgemm_tune {
namespace {

using sgemm_tune_kernels::SelectKind;
using testing::kBigTile;
using testing::kSeedTile;
// A dense row-major product with aligned rows adds a split's parts 16 bytes at a time.
constexpr auto kVector = sgemm_tune_kernels::SplitAdds::vector;
// Operands the fast kernel reads as they lie (none transposed, rows 16-byte aligned), with
// leading dimensions every tile's int offsets take; and operands it cannot read.
constexpr sgemm_tune_kernels::FastOperands kFastReads{true, 1, 1, 1};
constexpr sgemm_tune_kernels::FastOperands kNoFastReads{false, 1, 1, 1};

class QueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("sgemm_tune_query_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    store_ = std::make_unique<ResultStore>((dir_ / "tune.db").string());
    run_ = testing::fill_tuned_database(*store_, testing::h200_environment());
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  // A copy of the template with one character added: a kernel that has changed.
  KernelSource edited_template() const {
    const auto tdir = dir_ / "template";
    std::filesystem::create_directories(tdir);
    for (const auto &[name, text] : KernelSource::embedded().headers)
      std::ofstream(tdir / name, std::ios::binary) << text << (name == "sgemm_double_buffered.cuh" ? " " : "");
    return KernelSource::from_directory(tdir.string());
  }

  // One more run on the fixture's GPU and fingerprint, with one verified result.
  ResultRow record_one_result(const char *shape, const SgemmTile &tile, double time_ms, double tflops,
                              double cublas_ms) {
    const std::int64_t run = store_->begin_run(
        testing::h200_provenance(testing::h200_environment().fingerprint_for("NVIDIA H200", "9.0")));
    ResultRow row;
    row.status = CandidateStatus::ok;
    row.shape = parse_shape(shape);
    row.tile = tile;
    row.time_ms = time_ms;
    row.tflops = tflops;
    row.cublas_ms = cublas_ms;
    store_->record(run, row);
    store_->finish_run(run, true);
    return row;
  }

  std::filesystem::path dir_;
  std::unique_ptr<ResultStore> store_;
  std::int64_t run_ = 0;
};

TEST_F(QueryTest, BestIsTheFastestVerifiedResultPerShape) {
  const auto entries = best_entries(store_->database(), testing::h200_environment());
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].shape.to_string(), "1024x1024x1024");
  EXPECT_EQ(entries[1].shape.to_string(), "4096x4096x4096");
  EXPECT_TRUE(entries[1].tile == kBigTile);
  EXPECT_NEAR(entries[1].percent_of_cublas, 100 * 2.683 / 2.744, 1e-9);
  EXPECT_FALSE(entries[1].stale());
  EXPECT_TRUE(entries[1].unchecked.empty());
}

// Each entry carries what the selection scales from: its tile's residency, and the same
// tile's result at the shape of most work under the same fingerprint (the seed tile of the
// 1024^3 entry was timed at 4096^3 too).
TEST_F(QueryTest, EntriesCarryResidencyAndTheirTilesReferenceRate) {
  const auto entries = best_entries(store_->database(), testing::h200_environment());
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].blocks_per_sm, 4);
  EXPECT_EQ(entries[0].rate_shape.to_string(), "4096x4096x4096");
  EXPECT_NEAR(entries[0].rate_tflops, 2.0 * 4096.0 * 4096.0 * 4096.0 / 3.045e-3 / 1e12, 1e-9);
  EXPECT_EQ(entries[1].rate_shape.to_string(), "4096x4096x4096");
  EXPECT_NEAR(entries[1].rate_tflops, entries[1].tflops, 1e-9);
  const sgemm_tune_kernels::TunedShape t = tuned_shape(entries[0]);
  EXPECT_EQ(t.blocks_per_sm, 4);
  EXPECT_EQ(t.rate_M, 4096);
  EXPECT_DOUBLE_EQ(t.rate_tflops, entries[0].rate_tflops);
}

TEST_F(QueryTest, SelectionRuleExactThenPredicted) {
  const auto entries = best_entries(store_->database(), testing::h200_environment());
  std::vector<sgemm_tune_kernels::TunedShape> shapes;
  for (const auto &e : entries)
    shapes.push_back(tuned_shape(e));
  const int n = static_cast<int>(shapes.size());
  const auto select = [&](long long M, long long N, long long K, bool fast_operands) {
    return sgemm_tune_kernels::select_kernel(shapes.data(), n, M, N, K, fast_operands ? kFastReads : kNoFastReads,
                                             132, kVector);
  };
  const auto exact = select(4096, 4096, 4096, true);
  EXPECT_EQ(exact.kind, SelectKind::exact);
  EXPECT_EQ(exact.entry, 1);
  EXPECT_FALSE(exact.edges);
  // The same shape with operands the fast kernel cannot read: an edge kernel, by prediction.
  const auto transposed = select(4096, 4096, 4096, false);
  EXPECT_EQ(transposed.kind, SelectKind::predicted);
  EXPECT_TRUE(transposed.edges);
  EXPECT_GT(transposed.predicted_ps, 0.0);
  // 8192^3: both tiles divide it and it is large: the fast kernel, not split.
  const auto large = select(8192, 8192, 8192, true);
  EXPECT_EQ(large.kind, SelectKind::predicted);
  EXPECT_FALSE(large.edges);
  EXPECT_EQ(large.splits, 1);
  // Shapes no tile divides, down to 1 x 1 x 1, take an edge kernel.
  for (const auto &shape : {std::array<long long, 3>{4097, 513, 77}, {1, 1, 1}, {1000, 1000, 1000}}) {
    const auto s = select(shape[0], shape[1], shape[2], true);
    EXPECT_EQ(s.kind, SelectKind::predicted);
    EXPECT_TRUE(s.edges);
  }
  EXPECT_EQ(select(0, 4096, 4096, true).kind, SelectKind::none);
  EXPECT_EQ(select(4096, 4096, 0, true).kind, SelectKind::none);
  // An entry timed as a BLAS product ("4096x4096x4096:NT", on whichever kernel ran it) is
  // never an exact match for the plain product of its sizes in select_kernel (its own call is
  // sgemm_blas_call.h's exact_blas_entry), only a tile to predict with, and that only from
  // the rate its tile reached at a plain shape.
  for (auto &shape : shapes) shape.blas_product = true;
  ASSERT_GT(shapes[1].rate_tflops, 0.0);
  const auto blas = select(4096, 4096, 4096, true);
  EXPECT_EQ(blas.kind, SelectKind::predicted);
  EXPECT_GE(blas.entry, 0);
  for (auto &shape : shapes) shape.rate_tflops = 0;
  EXPECT_EQ(select(4096, 4096, 4096, true).kind, SelectKind::none);
  EXPECT_EQ(select(1000, 1000, 1000, true).kind, SelectKind::none);
}

TEST_F(QueryTest, ABlasShapeIsItsOwnBestEntryAndNeverTheRateReference) {
  // A tile the fixture never timed, at 4096^3 as an NT product only, faster there than any
  // plain result at 4096^3.
  const ResultRow row =
      record_one_result("4096x4096x4096:NT", SgemmTile{128, 128, 16, 64, 64, 2, 8, 8, 2, 0, 0}, 2.0, 70.0, 3.0);
  const auto entries = best_entries(store_->database(), testing::h200_environment());
  const BestEntry *nt = nullptr;
  for (const BestEntry &e : entries)
    if (e.shape.blas) nt = &e;
  ASSERT_NE(nt, nullptr);
  EXPECT_EQ(nt->shape.to_string(), "4096x4096x4096:NT");
  EXPECT_EQ(nt->tile, row.tile);
  EXPECT_TRUE(tuned_shape(*nt).blas_product);
  // The plain 4096^3 entry keeps its own best, and no rate comes from the NT result.
  for (const BestEntry &e : entries) {
    if (e.shape.blas) continue;
    EXPECT_FALSE(tuned_shape(e).blas_product);
    EXPECT_NE(e.tile, row.tile);
    EXPECT_LT(e.rate_tflops, 70.0);
  }
  EXPECT_EQ(nt->rate_tflops, 0.0);
}

// `best` answers a BLAS shape with the header's rule for its product: a B that stays
// transposed goes to the kernel of any operands, which has no tail split, and a BLAS shape
// tuned itself is an exact match, run as it was timed (its column-major twin too).
TEST_F(QueryTest, BestAnswersABlasShapeAsTheHeaderWould) {
  record_one_result("1000x1000x1000:NT", testing::kSeedTile, 0.06, 33.0, 0.05);
  record_one_result("1000x1000x1000:NN", testing::kSeedTile, 0.06, 33.0, 0.05);
  const std::string db = (dir_ / "tune.db").string();
  const auto best = [&](const std::string &shape) {
    const testing::CommandOutput out = testing::run_command(testing::tuner_binary() + " best --json --db " + db +
                                                            " --shape " + shape);
    EXPECT_EQ(out.exit_code, 0) << out.text;
    return nlohmann::json::parse(out.text, nullptr, false);
  };
  for (const char *shape : {"1000x1000x1000:NT", "1000x1000x1000:TN:col", "3000x3000x3000:NT", "500x300x200:TN:col"}) {
    const nlohmann::json j = best(shape);
    EXPECT_EQ(j.value("shape", ""), shape);
    EXPECT_EQ(j.value("kernel", ""), "any") << j.dump();
    EXPECT_EQ(j.value("tail_split", true), false) << j.dump();
    const bool tuned = std::string(shape).rfind("1000x", 0) == 0;
    EXPECT_EQ(j.value("selection", ""), tuned ? "exact" : "predicted") << j.dump();
    EXPECT_EQ(j.value("fill_split", !tuned), tuned) << j.dump();
  }
  // Only A transposed: the edge kernel, which may take the tail split.
  EXPECT_EQ(best("3000x3000x3000:TN").value("kernel", ""), "edges");
  // A tuned NN product no tile divides: exact, on the edge kernel with its tail split.
  const nlohmann::json nn = best("1000x1000x1000:NN");
  EXPECT_EQ(nn.value("selection", ""), "exact") << nn.dump();
  EXPECT_EQ(nn.value("kernel", ""), "edges") << nn.dump();
  EXPECT_EQ(nn.value("tail_split", false), true) << nn.dump();
  const testing::CommandOutput text =
      testing::run_command(testing::tuner_binary() + " best --db " + db + " --shape 1000x1000x1000:NT");
  EXPECT_NE(text.text.find("tuned; the generated header runs it as it was timed, on the any-operands kernel"),
            std::string::npos)
      << text.text;
}

// select_kernels, which a header measuring its choice times the candidates of: the kernels
// predicted fastest, fastest first, none twice; its first is select_kernel's choice; an
// exact match is the one candidate; a capacity of 0 or an empty shape gives none.
TEST(SelectKernel, CandidatesAreTheFastestPredictedInOrder) {
  using sgemm_tune_kernels::predict_time;
  using sgemm_tune_kernels::select_kernel;
  using sgemm_tune_kernels::select_kernels;
  using sgemm_tune_kernels::Selection;
  using sgemm_tune_kernels::TunedShape;
  SgemmTile wide = kBigTile, seed = kSeedTile;
  wide.STREAMK = 1;
  const TunedShape entries[] = {{4096, 4096, 4096, wide, 100.0, 50.0}, {4096, 4096, 4096, seed, 95.0, 45.0}};
  for (const auto &shape : {std::array<long long, 3>{1000, 1000, 1000}, {120, 120, 65536}, {8192, 8192, 8192},
                            {1, 1, 1}}) {
    const long long M = shape[0], N = shape[1], K = shape[2];
    Selection all[64];
    const int n = select_kernels(entries, 2, M, N, K, kFastReads, 132, kVector, all, 64);
    ASSERT_GT(n, 0);
    const Selection first = select_kernel(entries, 2, M, N, K, kFastReads, 132, kVector);
    EXPECT_EQ(all[0].entry, first.entry);
    EXPECT_EQ(all[0].edges, first.edges);
    EXPECT_EQ(all[0].splits, first.splits);
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(all[i].kind, SelectKind::predicted);
      EXPECT_DOUBLE_EQ(all[i].predicted_ps,
                       predict_time(entries[all[i].entry], M, N, K, 132, all[i].edges, all[i].splits, kVector));
      if (i > 0) EXPECT_LE(all[i - 1].predicted_ps, all[i].predicted_ps);
      for (int j = 0; j < i; ++j)
        EXPECT_FALSE(all[i].entry == all[j].entry && all[i].edges == all[j].edges && all[i].splits == all[j].splits)
            << "candidate " << i << " repeats " << j;
    }
    // A smaller capacity keeps the same leaders.
    Selection three[3];
    const int m = select_kernels(entries, 2, M, N, K, kFastReads, 132, kVector, three, 3);
    ASSERT_EQ(m, std::min(n, 3));
    for (int i = 0; i < m; ++i) EXPECT_DOUBLE_EQ(three[i].predicted_ps, all[i].predicted_ps);
  }
  // Complete: every kernel the rule weighs, predicted by brute force and sorted, gives the
  // same times in the same order (1000^3: no tile divides it, the edge kernels alone).
  {
    std::vector<double> all_times;
    for (const TunedShape &e : entries)
      for (int splits = 1; splits <= sgemm_tune_kernels::kMaxSplitK; ++splits) {
        bool offered = false;  // the rule's own list of splits
        for (int choice : sgemm_tune_kernels::detail::kSplitChoices) offered |= choice == splits;
        if (offered && sgemm_tune_kernels::k_split_fits(e.tile, 1000, splits))
          all_times.push_back(predict_time(e, 1000, 1000, 1000, 132, true, splits, kVector));
      }
    // and each edge kernel's tail split, where it splits some tile (at the entry's residency).
    for (const TunedShape &e : entries)
      if (sgemm_tune_kernels::tile_edges_tail_split(e.tile, 1000, 1000, 1000,
                                                    132LL * (e.blocks_per_sm > 0 ? e.blocks_per_sm : 1))
              .parts > 1)
        all_times.push_back(predict_time(e, 1000, 1000, 1000, 132, true, sgemm_tune_kernels::kEdgeTailSplit, kVector));
    std::sort(all_times.begin(), all_times.end());
    Selection every[64];
    const int n = select_kernels(entries, 2, 1000, 1000, 1000, kFastReads, 132, kVector, every, 64);
    ASSERT_EQ(n, static_cast<int>(all_times.size()));
    for (int i = 0; i < n; ++i) EXPECT_DOUBLE_EQ(every[i].predicted_ps, all_times[static_cast<std::size_t>(i)]);
  }
  // 1000^3 with no split limit in sight: both tiles at several splits, more than 8 candidates.
  Selection many[64];
  EXPECT_GT(select_kernels(entries, 2, 1000, 1000, 1000, kFastReads, 132, kVector, many, 64), 8);
  // An exact match is the only candidate; nothing for an empty shape or no room.
  Selection one[4];
  ASSERT_EQ(select_kernels(entries, 2, 4096, 4096, 4096, kFastReads, 132, kVector, one, 4), 1);
  EXPECT_EQ(one[0].kind, SelectKind::exact);
  EXPECT_EQ(select_kernels(entries, 2, 0, 4096, 4096, kFastReads, 132, kVector, one, 4), 0);
  EXPECT_EQ(select_kernels(entries, 2, 1000, 1000, 1000, kFastReads, 132, kVector, one, 0), 0);
}

// Whether a fast kernel can take a product's leading dimensions depends on its tile (its int
// offsets reach lda * BM): an lda too long for one tile's fast kernel leaves that tile to its
// edge kernel, and the other tiles' fast kernels stay candidates.
TEST(SelectKernel, LeadingDimensionsRuleOutTheFastKernelOfTheirTileAlone) {
  using sgemm_tune_kernels::FastOperands;
  using sgemm_tune_kernels::Selection;
  using sgemm_tune_kernels::TunedShape;
  const SgemmTile tall = kSeedTile;  // BM 128
  SgemmTile low = kSeedTile;         // BM 64
  low.BM = 64;
  low.WM = 32;
  ASSERT_EQ(sgemm_tune_kernels::check_tile(low), sgemm_tune_kernels::TileRule::ok);
  const long long lda = sgemm_tune_kernels::kIntMax / 128 + 1;  // fits BM 64, not BM 128
  ASSERT_FALSE(sgemm_tune_kernels::leading_dimensions_fit_tile(tall, lda, 4096, 4096));
  ASSERT_TRUE(sgemm_tune_kernels::leading_dimensions_fit_tile(low, lda, 4096, 4096));
  const TunedShape entries[] = {{2048, 2048, 2048, tall, 100.0, 50.0}, {2048, 2048, 2048, low, 95.0, 45.0}};
  const auto fast_entries = [&](const FastOperands &fast, long long M) {
    Selection all[64];
    const int n = sgemm_tune_kernels::select_kernels(entries, 2, M, 4096, 4096, fast, 132, kVector, all, 64);
    std::set<int> out;
    for (int i = 0; i < n; ++i)
      if (!all[i].edges) out.insert(all[i].entry);
    return out;
  };
  // 4096^3 with short leading dimensions: both fast kernels are candidates.
  EXPECT_EQ(fast_entries(FastOperands{true, 4096, 4096, 4096}, 4096), (std::set<int>{0, 1}));
  // The long lda: the BM 64 tile's fast kernel alone (the other tile keeps its edge kernel).
  EXPECT_EQ(fast_entries(FastOperands{true, lda, 4096, 4096}, 4096), (std::set<int>{1}));
  // Both tuned at 2048^3: the exact match with the higher figure gives way to the one whose
  // fast kernel takes the long lda.
  const auto exact = [&](long long a) {
    return sgemm_tune_kernels::select_kernel(entries, 2, 2048, 2048, 2048, FastOperands{true, a, 2048, 2048}, 132,
                                             kVector);
  };
  EXPECT_EQ(exact(2048).kind, SelectKind::exact);
  EXPECT_EQ(exact(2048).entry, 0);
  EXPECT_EQ(exact(lda).kind, SelectKind::exact);
  EXPECT_EQ(exact(lda).entry, 1);
  // Operands the fast kernel cannot read at all: no fast kernel, whatever the lengths.
  EXPECT_TRUE(fast_entries(FastOperands{false, 4096, 4096, 4096}, 4096).empty());
}

TEST(SelectKernel, PredictionCountsPaddingWavesAndSplits) {
  using sgemm_tune_kernels::predict_time;
  using sgemm_tune_kernels::select_kernel;
  using sgemm_tune_kernels::TunedShape;
  SgemmTile wide = kBigTile, seed = kSeedTile;  // 128 x 256 and 128 x 64 tiles, both stream-K
  wide.STREAMK = seed.STREAMK = 1;
  const TunedShape entries[] = {{4096, 4096, 4096, wide, 100.0, 50.0}, {4096, 4096, 4096, seed, 95.0, 45.0}};
  // 1024^3: 32 wide tiles or 128 seed tiles. On 32 SMs both fill whole waves and the higher
  // rate wins; on 128 the wide tiles leave three quarters of the SMs idle.
  EXPECT_LT(predict_time(entries[0], 1024, 1024, 1024, 32, true, 1, kVector),
            predict_time(entries[1], 1024, 1024, 1024, 32, true, 1, kVector));
  EXPECT_GT(predict_time(entries[0], 1024, 1024, 1024, 128, true, 1, kVector),
            predict_time(entries[1], 1024, 1024, 1024, 128, true, 1, kVector));
  // Edge tiles pad to whole tiles and K slices: 1000^3 costs what 1024 x 1024 x 1008 does.
  EXPECT_DOUBLE_EQ(predict_time(entries[1], 1000, 1000, 1000, 132, true, 1, kVector),
                   predict_time(entries[1], 1024, 1024, 1008, 132, true, 1, kVector));
  // A small output with a deep K fills the GPU only when K is split (by a split of K or by
  // the tail split, which splits every tile of a product smaller than a wave); a large one is
  // not split along K as a whole (at most its last wave's tiles, by the tail split). (At 128 x 128 x 65536 the seed tile's stream-K
  // fast kernel would split K itself.)
  const auto deep = select_kernel(entries, 2, 120, 120, 65536, kFastReads, 132, kVector);
  EXPECT_TRUE(deep.edges);
  EXPECT_TRUE(deep.splits > 1 || deep.splits == sgemm_tune_kernels::kEdgeTailSplit) << deep.splits;
  EXPECT_LT(predict_time(entries[deep.entry], 120, 120, 65536, 132, true, deep.splits, kVector),
            predict_time(entries[deep.entry], 120, 120, 65536, 132, true, 1, kVector) / 4);
  const auto streamk = select_kernel(entries, 2, 128, 128, 65536, kFastReads, 132, kVector);
  EXPECT_FALSE(streamk.edges);
  EXPECT_EQ(streamk.entry, 1);
  const int large_splits = select_kernel(entries, 2, 8192, 8192, 8192, kNoFastReads, 132, kVector).splits;
  EXPECT_TRUE(large_splits == 1 || large_splits == sgemm_tune_kernels::kEdgeTailSplit) << large_splits;
  // Without the tail split (a replay of timings that have none) the deep product is split.
  sgemm_tune_kernels::Selection plain{};
  ASSERT_EQ(sgemm_tune_kernels::select_kernels(entries, 2, 120, 120, 65536, kFastReads, 132, kVector, &plain, 1,
                                               false),
            1);
  EXPECT_GT(plain.splits, 1);
  // One tile past a whole wave: data-parallel, a second wave for one block; tail split, the
  // 133rd tile's K in 64 parts, plus the scale pass and the parts' additions. 896 x 1216 is 7
  // x 19 seed tiles (128 x 64) on 132 SMs of one block each.
  const double tail =
      predict_time(entries[1], 896, 1216, 4096, 132, true, sgemm_tune_kernels::kEdgeTailSplit, kVector);
  EXPECT_LT(tail, 0.6 * predict_time(entries[1], 896, 1216, 4096, 132, true, 1, kVector));
  // Whole waves: nothing split, nothing to prepare, no faster than data-parallel; and so not
  // offered, where it would be the whole-K launch again (a measured choice would time it twice).
  EXPECT_GE(predict_time(entries[1], 1408, 768, 4096, 132, true, sgemm_tune_kernels::kEdgeTailSplit, kVector),
            predict_time(entries[1], 1408, 768, 4096, 132, true, 1, kVector));
  sgemm_tune_kernels::Selection offered[64];
  const int offers = sgemm_tune_kernels::select_kernels(&entries[1], 1, 1408, 768, 4096, kNoFastReads, 132, kVector,
                                                        offered, 64);
  ASSERT_GT(offers, 0);
  for (int i = 0; i < offers; ++i) EXPECT_NE(offered[i].splits, sgemm_tune_kernels::kEdgeTailSplit);
  // One tile past the wave: offered.
  const int offers_past = sgemm_tune_kernels::select_kernels(&entries[1], 1, 896, 1216, 4096, kNoFastReads, 132,
                                                             kVector, offered, 64);
  EXPECT_TRUE(std::any_of(offered, offered + offers_past,
                          [](const sgemm_tune_kernels::Selection &c) { return c.splits == sgemm_tune_kernels::kEdgeTailSplit; }));
  // An entry without a measured rate is never picked; nothing takes a data-parallel grid
  // taller than CUDA allows, nor anything from an empty table.
  const TunedShape unmeasured[] = {{4096, 4096, 4096, wide, 100.0, 0.0}, entries[1]};
  EXPECT_EQ(select_kernel(unmeasured, 2, 1024, 1024, 1024, kFastReads, 32, kVector).entry, 1);
  EXPECT_EQ(select_kernel(entries, 2, 128LL * 65535 + 1, 4, 4, kFastReads, 32, kVector).kind, SelectKind::none);
  EXPECT_EQ(select_kernel(entries, 0, 1024, 1024, 1024, kFastReads, 32, kVector).kind, SelectKind::none);
}

// A split of K run as clusters (kOperandClusterSplit) has no scale pass, a launch, to pay
// for: up to kMaxClusterSplit ways and a block an SM it is predicted cheaper than the same
// split with one, the same beyond; and a small product that K does not make worth splitting
// with the scale pass is split so.
TEST(SelectKernel, ClusterSplitsSkipTheScalePass) {
  using sgemm_tune_kernels::cluster_split_fits;
  using sgemm_tune_kernels::predict_time;
  using sgemm_tune_kernels::TunedShape;
  const TunedShape entries[] = {{4096, 4096, 4096, kSeedTile, 95.0, 45.0}};
  const sgemm_tune_kernels::ClusterSlots any_sms = sgemm_tune_kernels::uniform_cluster_slots(132);
  const sgemm_tune_kernels::ClusterSlots *clusters = &any_sms, *none = nullptr;
  // 256 x 256 is 8 seed tiles (128 x 64): up to 16 ways fill 132 SMs a block each.
  for (int splits : {2, 3, 4, 6, 8}) {
    EXPECT_TRUE(cluster_split_fits(splits, 8, any_sms));
    EXPECT_LT(predict_time(entries[0], 256, 256, 2048, 132, true, splits, kVector, clusters),
              predict_time(entries[0], 256, 256, 2048, 132, true, splits, kVector, none) - 3.0e6)
        << splits;
  }
  for (int splits : {1, 12, 64}) {
    EXPECT_FALSE(cluster_split_fits(splits, 8, any_sms));
    EXPECT_DOUBLE_EQ(predict_time(entries[0], 256, 256, 2048, 132, true, splits, kVector, clusters),
                     predict_time(entries[0], 256, 256, 2048, 132, true, splits, kVector, none))
        << splits;
  }
  // More blocks than SMs: the scale pass, priced so. 1024 x 1024 is 128 seed tiles.
  EXPECT_FALSE(cluster_split_fits(2, 128, any_sms));
  EXPECT_TRUE(cluster_split_fits(2, 66, any_sms));
  EXPECT_FALSE(cluster_split_fits(2, 67, any_sms));
  EXPECT_DOUBLE_EQ(predict_time(entries[0], 1024, 1024, 1024, 132, true, 2, kVector, clusters),
                   predict_time(entries[0], 1024, 1024, 1024, 132, true, 2, kVector, none));
  EXPECT_FALSE(cluster_split_fits(sgemm_tune_kernels::kMaxClusterSplit + 1, 1, any_sms));
  // 256 x 128 x 64 on the seed tile: 4 tiles, 4 K slices. With the scale pass no split
  // pays; as clusters one does.
  sgemm_tune_kernels::Selection with_pass{}, with_clusters{};
  ASSERT_EQ(sgemm_tune_kernels::select_kernels(entries, 1, 256, 128, 64, kNoFastReads, 132, kVector, &with_pass, 1,
                                               false, none),
            1);
  ASSERT_EQ(sgemm_tune_kernels::select_kernels(entries, 1, 256, 128, 64, kNoFastReads, 132, kVector,
                                               &with_clusters, 1, false, clusters),
            1);
  EXPECT_EQ(with_pass.splits, 1);
  EXPECT_TRUE(cluster_split_fits(with_clusters.splits, 4, any_sms)) << with_clusters.splits;
}

// A cluster's blocks run on one GPC, so a GPU holds fewer clusters at once than its SMs over
// the cluster's size where its GPCs leave SMs over: a split whose clusters it cannot hold at
// once (they would run in two waves) is priced after the scale pass, and more blocks per SM
// hold more clusters.
TEST(SelectKernel, ClustersAreHeldToWhatTheGpcsHoldAtOnce) {
  using sgemm_tune_kernels::ClusterSlots;
  using sgemm_tune_kernels::cluster_split_fits;
  using sgemm_tune_kernels::predict_time;
  using sgemm_tune_kernels::TunedShape;
  // Without the GPCs: any SMs hold a cluster, as the rule was before.
  const ClusterSlots any_sms = sgemm_tune_kernels::uniform_cluster_slots(132);
  EXPECT_EQ(any_sms.sms, 132);
  EXPECT_EQ(any_sms.at_once[2], 66);
  EXPECT_EQ(any_sms.at_once[6], 22);
  EXPECT_EQ(any_sms.at_once[8], 16);
  EXPECT_EQ(sgemm_tune_kernels::uniform_cluster_slots(132, 2).at_once[6], 44);
  // What an H100 and an H200 hold at one block per SM (cudaOccupancyMaxActiveClusters,
  // bench/results/2026-12-06-h200-small-threads): 17 clusters of 6.
  ClusterSlots gpcs = any_sms;
  const int measured[] = {66, 39, 30, 22, 17, 15, 15};
  static_assert(sizeof measured / sizeof measured[0] == sgemm_tune_kernels::kMaxClusterSplit - 1,
                "a measured figure for each cluster size 2 .. kMaxClusterSplit");
  for (int size = 2; size <= sgemm_tune_kernels::kMaxClusterSplit; ++size) gpcs.at_once[size] = measured[size - 2];
  // 20 tiles split 6 ways: 120 blocks, fewer than the SMs, but 20 clusters.
  EXPECT_TRUE(cluster_split_fits(6, 20, any_sms));
  EXPECT_FALSE(cluster_split_fits(6, 20, gpcs));
  EXPECT_TRUE(cluster_split_fits(6, 17, gpcs));
  EXPECT_FALSE(cluster_split_fits(6, 18, gpcs));
  EXPECT_TRUE(cluster_split_fits(6, 20, gpcs, 2));  // two blocks an SM: at least 34 clusters
  EXPECT_FALSE(cluster_split_fits(6, 23, gpcs, 2));  // still no more blocks than SMs
  // 2442 x 118 x 151 (20 tiles of 128 x 128, a tile of one block per SM)
  // split 6 ways: priced as clusters where any SMs hold them, after the scale pass where the
  // GPCs do not.
  TunedShape one_block = {256, 256, 4096, {128, 128, 16, 32, 64, 2, 8, 4, 3, 1, 1}, 115.0, 22.5, 1};
  ASSERT_EQ(sgemm_tune_kernels::detail::tiles_over(2442, 118, one_block.tile), 20);
  const double as_clusters = predict_time(one_block, 2442, 118, 151, 132, true, 6, kVector, &any_sms);
  const double after_pass = predict_time(one_block, 2442, 118, 151, 132, true, 6, kVector, nullptr);
  EXPECT_LT(as_clusters, after_pass);
  EXPECT_DOUBLE_EQ(predict_time(one_block, 2442, 118, 151, 132, true, 6, kVector, &gpcs), after_pass);
  // The same tile at two blocks per SM fits either way.
  TunedShape two_blocks = one_block;
  two_blocks.blocks_per_sm = 2;
  EXPECT_LT(predict_time(two_blocks, 2442, 118, 151, 132, true, 6, kVector, &gpcs),
            predict_time(two_blocks, 2442, 118, 151, 132, true, 6, kVector, nullptr));
}

// The launch's own rule (launch_tile_edges): clusters only where the caller set the bit,
// there is K to split, it is not the tail split, and the split fits the kernel's slots.
TEST(SelectKernel, AnEdgeLaunchRunsAsClustersOnlyWhereItsKernelHoldsThemAtOnce) {
  using sgemm_tune_kernels::edge_launch_as_clusters;
  using sgemm_tune_kernels::kOperandClusterSplit;
  sgemm_tune_kernels::ClusterSlots kernel = sgemm_tune_kernels::uniform_cluster_slots(132);
  kernel.at_once[6] = 19;
  EXPECT_TRUE(edge_launch_as_clusters(kOperandClusterSplit, 151, 6, 19, &kernel));
  EXPECT_FALSE(edge_launch_as_clusters(kOperandClusterSplit, 151, 6, 20, &kernel));  // a second wave
  EXPECT_TRUE(edge_launch_as_clusters(kOperandClusterSplit, 151, 4, 20, &kernel));
  EXPECT_FALSE(edge_launch_as_clusters(0, 151, 6, 19, &kernel));                     // not asked for
  EXPECT_FALSE(edge_launch_as_clusters(kOperandClusterSplit, 151, 6, 19, nullptr));  // slots unknown
  EXPECT_FALSE(edge_launch_as_clusters(kOperandClusterSplit, 0, 6, 19, &kernel));    // no K
  EXPECT_FALSE(edge_launch_as_clusters(kOperandClusterSplit, 151, sgemm_tune_kernels::kEdgeTailSplit, 19, &kernel));
  EXPECT_FALSE(edge_launch_as_clusters(kOperandClusterSplit, 151, 1, 19, &kernel));  // not split
  kernel.at_once[6] = 0;  // a size the runtime could not answer
  EXPECT_FALSE(edge_launch_as_clusters(kOperandClusterSplit, 151, 6, 1, &kernel));
}

// Packing pays where the product is large against its operands (it is read K times over),
// not where the copies' launches would dominate.
TEST(SelectKernel, PackingIsChosenWhereItPays) {
  const auto pack_is_faster = [](double edges_ps, bool any, long long a_floats, long long b_floats) {
    return sgemm_tune_kernels::predict_packed(edges_ps, a_floats, b_floats) <
           sgemm_tune_kernels::predict_as_they_lie(edges_ps, any);
  };
  const double large = 1.0e9;  // a millisecond of edge kernel
  for (bool any : {true, false}) {
    EXPECT_TRUE(pack_is_faster(large, any, 4096LL * 4096, 4096LL * 4096));
    const double tiny = 8.0e6;  // 8 microseconds
    EXPECT_FALSE(pack_is_faster(tiny, any, 256LL * 256, 0));
  }
  // The edge kernel's narrow bodies lose less to the wide ones than the kernel of any
  // operands does: a product where packing pays against the latter need not against them.
  const double medium = 5.0e7;  // 50 microseconds
  EXPECT_TRUE(pack_is_faster(medium, true, 1024LL * 1024, 0));
  EXPECT_FALSE(pack_is_faster(medium, false, 1024LL * 1024, 0));
  // More to copy costs more.
  EXPECT_LT(sgemm_tune_kernels::predict_pack_time(1000, 0), sgemm_tune_kernels::predict_pack_time(1000, 1000));
  EXPECT_LT(sgemm_tune_kernels::predict_pack_time(1000, 0), sgemm_tune_kernels::predict_pack_time(1000000, 0));
}

// A product of one large operand with unaligned rows and a small transposed one (row-major
// A B^T, M = 100, N = 4072, K = 3839, both leading dimensions K): copying the large one costs
// more than the narrow bodies lose reading it, so the transposed one alone is predicted
// fastest, ahead of both the kernel of any operands and packing every operand.
TEST(SelectKernel, TheSmallTransposedOperandAlonePacksWhereTheOtherIsLarge) {
  using namespace sgemm_tune_kernels;
  const double edges = 7.5e7;  // the edge kernel on aligned operands: 75 us
  const long long large = 4072LL * 3839, small = 100LL * 3839;
  const double alone = predict_transposed_packed(edges, small);
  EXPECT_LT(alone, predict_as_they_lie(edges, true));
  EXPECT_LT(alone, predict_packed(edges, large, small));
  // Where the product is small against the copy, the operands stay as they lie.
  EXPECT_GT(predict_transposed_packed(5.0e6, small), predict_as_they_lie(5.0e6, true));
  // Two large operands: the narrow bodies' slowdown on the whole product costs more than
  // copying the unaligned one too.
  const long long square = 4096LL * 4095;
  EXPECT_LT(predict_packed(4.0e9, square, square), predict_transposed_packed(4.0e9, square));
}

// An SM's rate by the warps it holds: a scheduler with one warp cannot hide the latency of
// shared-memory loads as two or more can (measured, two did as well as three: both rates 1).
TEST(SelectKernel, AnSmWithFewWarpsRunsSlower) {
  using sgemm_tune_kernels::detail::sm_rate;
  EXPECT_DOUBLE_EQ(sm_rate(0), 0.0);
  EXPECT_DOUBLE_EQ(sm_rate(2), 0.5 * sgemm_tune_kernels::detail::kOneWarpPerSchedulerRate);
  EXPECT_DOUBLE_EQ(sm_rate(4), sgemm_tune_kernels::detail::kOneWarpPerSchedulerRate);
  EXPECT_DOUBLE_EQ(sm_rate(8), sgemm_tune_kernels::detail::kTwoWarpsPerSchedulerRate);
  EXPECT_DOUBLE_EQ(sm_rate(12), 1.0);
  EXPECT_DOUBLE_EQ(sm_rate(64), 1.0);
}

// A product of fewer blocks than the SMs hold runs its last wave with SMs part empty: 1000^3
// in 64 x 128 tiles of two warps is 128 blocks, one to an SM where four fit. Each runs faster
// than in a full SM, but two warps keep two of the four schedulers busy: the wave takes
// 1/4 * rate(8 warps) / rate(2 warps) of a full one, and K is split until the SMs are full.
TEST(SelectKernel, ResidencyStretchesAPartWave) {
  using sgemm_tune_kernels::detail::block_units;
  using sgemm_tune_kernels::detail::kBlockOverheadSlices;
  using sgemm_tune_kernels::detail::sm_rate;
  const SgemmTile wide{64, 128, 32, 32, 128, 4, 8, 4, 2, 0, 1};
  const sgemm_tune_kernels::TunedShape four{4096, 4096, 4096, wide, 100.0, 50.0, 4, 0, 0, 0, 0.0};
  const double slices = 32;  // 1000 / 32, rounded up
  EXPECT_DOUBLE_EQ(block_units(four, 128, 32, 132),
                   (slices + kBlockOverheadSlices) * 0.25 * sm_rate(8) / sm_rate(2));
  // Full waves cost what their blocks do: 2 x 132 x 4 blocks are two waves.
  EXPECT_DOUBLE_EQ(block_units(four, 2 * 132 * 4, 32, 132), 2 * (slices + kBlockOverheadSlices));
  const auto s = sgemm_tune_kernels::select_kernel(&four, 1, 1000, 1000, 1000, kNoFastReads, 132, kVector);
  EXPECT_TRUE(s.edges);
  EXPECT_GE(s.splits, 3);
  // Told nothing of residency (one block to an SM), the same product is not split.
  sgemm_tune_kernels::TunedShape unknown = four;
  unknown.blocks_per_sm = 0;
  EXPECT_EQ(sgemm_tune_kernels::select_kernel(&unknown, 1, 1000, 1000, 1000, kNoFastReads, 132, kVector).splits, 1);
}

// A split of K adds its parts into C 16 bytes per atomic on the edge kernel, whatever C's
// alignment (realigned across lanes where its rows are not 16-byte aligned), and along a
// transposed C's columns where the tile's TM is a multiple of 4; 4 bytes per atomic on the
// kernel of any operands (B transposed) where C is unaligned or transposed. The same split is
// predicted cheaper with the wide atomics, an unsplit product costs the same either way, and
// 1000^3, whose 128 blocks leave the SMs part empty, is split at least as many ways with them.
TEST(SelectKernel, SplitPartsAddedSixteenBytesAtATimeCostLess) {
  using sgemm_tune_kernels::kOperandScalar;
  using sgemm_tune_kernels::kOperandTransB;
  using sgemm_tune_kernels::kOperandTransC;
  using sgemm_tune_kernels::split_adds;
  using sgemm_tune_kernels::split_adds_of_tile;
  using sgemm_tune_kernels::SplitAdds;
  EXPECT_EQ(split_adds(0), SplitAdds::vector);
  EXPECT_EQ(split_adds(sgemm_tune_kernels::kOperandTransA | kOperandTransB | sgemm_tune_kernels::kOperandNarrowAB),
            SplitAdds::vector);
  EXPECT_EQ(split_adds(kOperandScalar), SplitAdds::vector);
  EXPECT_EQ(split_adds(kOperandTransC), SplitAdds::transposed);
  EXPECT_EQ(split_adds(kOperandTransC | kOperandScalar), SplitAdds::transposed);
  EXPECT_EQ(split_adds(kOperandTransB | kOperandScalar), SplitAdds::scalar);
  EXPECT_EQ(split_adds(kOperandTransB | kOperandTransC), SplitAdds::scalar);
  const SgemmTile tm4{64, 128, 32, 32, 128, 4, 4, 4, 2, 0, 1};
  const SgemmTile tm2{64, 128, 32, 32, 128, 4, 2, 4, 2, 0, 1};
  EXPECT_EQ(split_adds_of_tile(SplitAdds::transposed, tm4), SplitAdds::vector);
  EXPECT_EQ(split_adds_of_tile(SplitAdds::transposed, tm2), SplitAdds::scalar);
  EXPECT_EQ(split_adds_of_tile(SplitAdds::scalar, tm4), SplitAdds::scalar);
  EXPECT_EQ(split_adds_of_tile(SplitAdds::vector, tm2), SplitAdds::vector);
  const SgemmTile wide{64, 128, 32, 32, 128, 4, 8, 4, 2, 0, 1};
  const sgemm_tune_kernels::TunedShape four{4096, 4096, 4096, wide, 100.0, 50.0, 4, 0, 0, 0, 0.0};
  const auto predict = [&](int splits, SplitAdds adds) {
    return sgemm_tune_kernels::predict_time(four, 1000, 1000, 1000, 132, true, splits, adds);
  };
  EXPECT_DOUBLE_EQ(predict(1, SplitAdds::vector), predict(1, SplitAdds::scalar));
  for (int splits : {2, 4, 8}) EXPECT_LT(predict(splits, SplitAdds::vector), predict(splits, SplitAdds::scalar));
  EXPECT_DOUBLE_EQ(predict(4, SplitAdds::transposed), predict(4, SplitAdds::vector));  // TM 8
  const auto select = [&](SplitAdds adds) {
    return sgemm_tune_kernels::select_kernel(&four, 1, 1000, 1000, 1000, kNoFastReads, 132, adds);
  };
  EXPECT_GE(select(SplitAdds::vector).splits, select(SplitAdds::scalar).splits);
  EXPECT_GT(select(SplitAdds::vector).splits, 1);
}

// The rate comes from the tile's reference measurement where there is one: an entry tuned at
// 256^3, whose time there is mostly latency (3 TFLOP/s), predicts 4096^3 from the same tile's
// 50 TFLOP/s at 4096^3, not from its own.
TEST(SelectKernel, RateIsScaledFromTheTilesReferenceShape) {
  const SgemmTile wide{64, 128, 32, 32, 128, 4, 8, 4, 2, 0, 1};
  const sgemm_tune_kernels::TunedShape small{256, 256, 256, wide, 170.0, 3.0, 4, 4096, 4096, 4096, 50.0};
  const double big = 2.0 * 4096.0 * 4096.0 * 4096.0;
  const double fast = sgemm_tune_kernels::predict_time(small, 4096, 4096, 4096, 132, false, 1, kVector);
  EXPECT_NEAR(fast, sgemm_tune_kernels::detail::kFastKernelAdvantage * big / 50.0, 0.01 * big / 50.0);
  // From its own measurement alone the entry is misjudged: 256^3's 64 K slices, spread over
  // 528 persistent blocks, count as a slice per block, and 7 us for them overrates the tile.
  sgemm_tune_kernels::TunedShape own = small;
  own.rate_tflops = 0;
  EXPECT_LT(sgemm_tune_kernels::predict_time(own, 4096, 4096, 4096, 132, false, 1, kVector), 0.8 * fast);
}

TEST(SelectKernel, SplitRangesCoverEveryKSliceOnce) {
  const SgemmTile t = kSeedTile;  // BK = 16
  for (int K : {1, 15, 16, 17, 1000, 4096, 7746})
    for (int splits : {1, 2, 3, 7, 16, 64}) {
      const int slices = (K + 15) / 16;
      int next = 0;
      for (int z = 0; z < splits; ++z) {
        const auto r = sgemm_tune_kernels::split_k_range(t, K, splits, z);
        ASSERT_LE(r.begin, r.end);
        if (r.begin == r.end) continue;
        EXPECT_EQ(r.begin, next) << K << " " << splits << " " << z;
        next = r.end;
      }
      EXPECT_EQ(next, slices) << K << " " << splits;
    }
}

TEST(SelectEdges, EdgeShapeRulesPadAndBoundTheGrid) {
  const SgemmTile t = kSeedTile;  // 128 x 64 x 16
  EXPECT_TRUE(sgemm_tune_kernels::shape_fits_tile_edges(t, 1, 1, 1));
  EXPECT_TRUE(sgemm_tune_kernels::shape_fits_tile_edges(t, 1000, 999, 1003));
  EXPECT_TRUE(sgemm_tune_kernels::shape_fits_tile_edges(t, 128LL * 65535, 64, 16));
  EXPECT_FALSE(sgemm_tune_kernels::shape_fits_tile_edges(t, 128LL * 65535 + 1, 64, 16));
  EXPECT_FALSE(sgemm_tune_kernels::shape_fits_tile_edges(t, 0, 64, 16));
  EXPECT_FALSE(sgemm_tune_kernels::shape_fits_tile_edges(t, 128, 64, 2147483647));
  const auto plan = sgemm_tune_kernels::tile_edges_launch_plan(t, 1000, 999);
  EXPECT_FALSE(plan.prepare);
  EXPECT_EQ(plan.grid_x, 16u);  // ceil(999 / 64)
  EXPECT_EQ(plan.grid_y, 8u);   // ceil(1000 / 128)
  EXPECT_EQ(plan.grid_z, 1u);
  SgemmTile streamk = t;
  streamk.STREAMK = 1;
  EXPECT_EQ(sgemm_tune_kernels::tile_edges_launch_plan(streamk, 1000, 999).grid_y, 8u);
  // A split of K: the scale pass first, then the splits in z, at most kMaxSplitK.
  const auto split = sgemm_tune_kernels::tile_edges_launch_plan(t, 1000, 999, 6);
  EXPECT_TRUE(split.prepare);
  EXPECT_EQ(split.grid_z, 6u);
  EXPECT_EQ(sgemm_tune_kernels::tile_edges_launch_plan(t, 1000, 999, 1000).grid_z,
            static_cast<unsigned>(sgemm_tune_kernels::kMaxSplitK));
}

TEST_F(QueryTest, OneCharacterTemplateChangeMakesEverythingStale) {
  const KernelSource edited = edited_template();
  const auto entries = best_entries(store_->database(), testing::h200_environment(edited));
  ASSERT_EQ(entries.size(), 2u);
  for (const auto &e : entries) {
    ASSERT_TRUE(e.stale());
    ASSERT_EQ(e.changes.size(), 1u);
    EXPECT_EQ(e.changes[0].part, "template");
    EXPECT_EQ(e.changes[0].current, edited.hash);
  }
}

TEST_F(QueryTest, ChangedCompileOptionMakesItStale) {
  CurrentEnvironment env = testing::h200_environment();
  env.extra_compile_options = {"--use_fast_math"};
  const auto entries = best_entries(store_->database(), env);
  ASSERT_FALSE(entries.empty());
  ASSERT_TRUE(entries[0].stale());
  EXPECT_EQ(entries[0].changes[0].part, "compile options");
}

TEST_F(QueryTest, DriverChangeIsStaleAndNoGpuIsUnchecked) {
  CurrentEnvironment env = testing::h200_environment();
  env.driver_version = "13.1 (590.10.01)";
  EXPECT_EQ(best_entries(store_->database(), env)[0].changes.at(0).part, "driver");
  env.gpu_name.clear();
  env.driver_version.clear();
  const auto entries = best_entries(store_->database(), env);
  EXPECT_FALSE(entries[0].stale());
  ASSERT_EQ(entries[0].unchecked.size(), 1u);
  EXPECT_NE(entries[0].unchecked[0].find("no GPU here"), std::string::npos);
}

TEST_F(QueryTest, ANewerRunUnderTheCurrentFingerprintWins) {
  // Retune with an edited template: the new run's result is preferred even though slower.
  const KernelSource edited = edited_template();
  const CurrentEnvironment env = testing::h200_environment(edited);
  RunProvenance p;
  p.command = "retune";
  p.space_name = p.space_source = p.space_hash = p.runtime_version = p.template_origin = "x";
  p.fingerprint = env.fingerprint_for(env.gpu_name, env.compute_capability);
  const std::int64_t run = store_->begin_run(p);
  store_->record(run, testing::ok_row(Shape{4096, 4096, 4096}, kSeedTile, 2.9, 2.683));
  const auto entries = best_entries(store_->database(), env);
  EXPECT_EQ(entries[1].run_id, run);
  EXPECT_FALSE(entries[1].stale());
  EXPECT_TRUE(entries[0].stale());  // 1024^3 was not retuned
}

TEST_F(QueryTest, ResultsTimedAsGraphsAreNeverRankedWithResultsTimedBackToBack) {
  // A run timed as graphs finds the seed tile at 2.9 ms at 4096^3, where the fixture's
  // back-to-back run found the big tile at 2.744: two ways of timing, two figures that are
  // not comparable, so the newer run answers with its own fastest row.
  const CurrentEnvironment env = testing::h200_environment();
  Fingerprint graphs = env.fingerprint_for(env.gpu_name, env.compute_capability);
  graphs.timing_method = "graphs";
  EXPECT_NE(graphs.hash(), env.fingerprint_for(env.gpu_name, env.compute_capability).hash());
  const std::int64_t run = store_->begin_run(testing::h200_provenance(graphs));
  store_->record(run, testing::ok_row(Shape{4096, 4096, 4096}, kSeedTile, 2.9, 2.683));
  store_->finish_run(run, true);
  const auto started = [&](const char *when) {
    Statement st = store_->database().prepare("UPDATE runs SET started_at = :when WHERE id = :id");
    st.bind(":when", when).bind(":id", run).run();
  };

  started("2099-01-01T00:00:00Z");
  auto entries = best_entries(store_->database(), env);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[1].run_id, run);
  EXPECT_EQ(entries[1].tile, kSeedTile);
  EXPECT_DOUBLE_EQ(entries[1].time_ms, 2.9);
  EXPECT_EQ(entries[1].fingerprint.timing_method, "graphs");
  EXPECT_FALSE(entries[1].stale()) << "the method is how it was timed, not a change of environment";
  EXPECT_EQ(entries[0].fingerprint.timing_method, "stream");  // 1024^3 was timed back to back only

  started("2000-01-01T00:00:00Z");
  entries = best_entries(store_->database(), env);
  EXPECT_NE(entries[1].run_id, run);
  EXPECT_EQ(entries[1].tile, kBigTile);
  EXPECT_EQ(entries[1].fingerprint.timing_method, "stream");
}

TEST_F(QueryTest, EmissionIsDeterministicAndShipsCodeCompiledFromTheTimedTemplate) {
  const KernelSource kernel = KernelSource::embedded();
  EmitOptions options;
  options.database_label = "tune.db";
  options.kernel = &kernel;
  const EmittedHeader a = emit_header(store_->database(), testing::h200_environment(), options);
  const EmittedHeader b = emit_header(store_->database(), testing::h200_environment(), options);
  EXPECT_EQ(a.text, b.text);
  EXPECT_EQ(a.entries, 2u);
  // Both entries: the 4096^3 one whose code the database kept (and which compiles to the
  // same bytes), and the 1024^3 one whose code it did not keep.
  EXPECT_EQ(a.with_code, 2u);
  EXPECT_TRUE(a.code_mismatches.empty());
  EXPECT_EQ(a.stale, 0u);
  EXPECT_NE(a.text.find("Generated by sgemm-tune"), std::string::npos);
  EXPECT_NE(a.text.find("Do not edit"), std::string::npos);
  EXPECT_NE(a.text.find(KernelSource::embedded().hash), std::string::npos);
  EXPECT_NE(a.text.find("\"NVIDIA H200\""), std::string::npos);
  // Each entry carries what the selection scales from: 4 blocks per SM, and its tile's
  // result at 4096^3 (both entries' tiles were timed there); without them the selection
  // would quietly fall back to one block per SM and the entry's own rate.
  EXPECT_NE(a.text.find(", 4, 4096, 4096, 4096, "), std::string::npos);
  EXPECT_EQ(a.text.find("launch_fast<"), std::string::npos);
  // The images are the tuner's compilation, byte for byte: entry 0 is 1024^3 (the seed
  // tile), entry 1 4096^3 (kBigTile).
  const auto images = testing::header_images(a.text);
  EXPECT_EQ(images.size(), 6u);
  EXPECT_EQ(images.at("kCubin0"), compile_kernel(kernel, CompileOptions{}, kSeedTile).cubin);
  EXPECT_EQ(images.at("kCubin1"), compile_kernel(kernel, CompileOptions{}, kBigTile).cubin);
  // Each entry's edge variant too, as machine code, with its own symbol.
  EXPECT_EQ(a.with_edges_code, 2u);
  EXPECT_EQ(a.text.find("launch_edges<"), std::string::npos);
  EXPECT_NE(a.text.find("kCubinEdges1"), std::string::npos);
  EXPECT_NE(a.text.find("\"_ZN18sgemm_tune_kernels27sgemm_double_buffered_edgesILi128ELi256ELi32E"), std::string::npos);
  // The interface of that machine code: recorded in the table (after its 2 entries), and
  // checked where the header is built, which refuses kernel_templates of another interface.
  const std::string interface = std::to_string(sgemm_tune_kernels::kMachineCodeInterface);
  EXPECT_NE(a.text.find(", kLoadedAny0, 2, " + interface + "},"), std::string::npos);
  const std::size_t check_at = a.text.find("static_assert(::sgemm_tune_kernels::kMachineCodeInterface == ");
  ASSERT_NE(check_at, std::string::npos);
  const std::string check = a.text.substr(check_at, a.text.find(");", check_at) + 2 - check_at);
  const auto compiles = [&](const std::string &statement) {
    const auto unit = dir_ / "interface_check.cpp";
    std::ofstream(unit) << "#include \"sgemm_tile_rules.h\"\n" << statement << "\n";
    const std::string cmd = "g++ -std=c++17 -fsyntax-only -I" + testing::source_dir() + "/kernel_templates " +
                            unit.string() + " > " + (dir_ / "interface_check.txt").string() + " 2>&1";
    return std::system(cmd.c_str()) == 0;
  };
  EXPECT_TRUE(compiles(check)) << check;
  std::string other = check;
  other.replace(other.find(interface), interface.size(), std::to_string(sgemm_tune_kernels::kMachineCodeInterface + 1));
  EXPECT_FALSE(compiles(other)) << other;
  std::ifstream said(dir_ / "interface_check.txt");
  EXPECT_NE(std::string(std::istreambuf_iterator<char>(said), {}).find("emit it again"), std::string::npos);

  // Timed with another template: that code cannot be compiled here, so the tiles are
  // compiled from source in the user's build.
  const KernelSource edited = edited_template();
  options.kernel = &edited;
  const EmittedHeader stale = emit_header(store_->database(), testing::h200_environment(edited), options);
  EXPECT_EQ(stale.stale, 2u);
  EXPECT_EQ(stale.with_code, 0u);
  EXPECT_NE(stale.text.find("STALE"), std::string::npos);
  EXPECT_NE(stale.text.find("launch_fast<128,256,32,128,32,1,8,8,2,0,0>"), std::string::npos);
  EXPECT_EQ(stale.with_edges_code, 0u);
  EXPECT_NE(stale.text.find("launch_edges<128,256,32,128,32,1,8,8,2,0,0>"), std::string::npos);
  // No machine code, nothing to check: the user's compiler builds the kernels it launches.
  EXPECT_EQ(stale.text.find("static_assert("), std::string::npos);
}

// One tile is often the best at several shapes: its machine code is written once, and
// every row of that tile points at the same arrays.
TEST_F(QueryTest, EntriesOfOneTileShareTheirMachineCode) {
  const CurrentEnvironment env = testing::h200_environment();
  RunProvenance p;
  p.command = "tune 2048^3";
  p.space_name = p.space_source = p.space_hash = p.runtime_version = p.template_origin = "x";
  p.fingerprint = env.fingerprint_for(env.gpu_name, env.compute_capability);
  store_->record(store_->begin_run(p), testing::ok_row(Shape{2048, 2048, 2048}, kBigTile, 0.36, 0.35));
  const KernelSource kernel = KernelSource::embedded();
  EmitOptions options;
  options.database_label = "tune.db";
  options.kernel = &kernel;
  const EmittedHeader h = emit_header(store_->database(), env, options);
  ASSERT_EQ(h.entries, 3u);
  EXPECT_EQ(h.with_code, 3u);
  EXPECT_EQ(h.with_edges_code, 3u);
  // Two tiles, three kernels each: six arrays for three entries.
  std::size_t arrays = 0;
  for (auto at = h.text.find("inline const unsigned char "); at != std::string::npos;
       at = h.text.find("inline const unsigned char ", at + 1))
    ++arrays;
  EXPECT_EQ(arrays, 6u);
  // Entries in shape order: 1024^3 (seed tile), 2048^3 and 4096^3 (kBigTile), the last
  // row reusing the arrays written for the one before.
  EXPECT_NE(h.text.find("kCubin1, sizeof kCubin1 - 1, "), std::string::npos);
  EXPECT_EQ(h.text.find("kCubin2"), std::string::npos);
  const std::size_t last_row = h.text.find("{4096, 4096, 4096, ");
  ASSERT_NE(last_row, std::string::npos);
  const std::string row = h.text.substr(last_row, h.text.find('\n', last_row) - last_row);
  for (const char *array : {"kCubin1, ", "kCubinEdges1, ", "kCubinAny1, "})
    EXPECT_NE(row.find(array), std::string::npos) << array << " in " << row;
}

TEST_F(QueryTest, WithoutATemplateEveryEntryIsCompiledFromSource) {
  EmitOptions options;
  options.database_label = "tune.db";
  const EmittedHeader a = emit_header(store_->database(), testing::h200_environment(), options);
  EXPECT_EQ(a.with_code, 0u);
  EXPECT_NE(a.text.find("launch_fast<128,64,16,64,32,2,4,4,2,0,0>"), std::string::npos);
  EXPECT_NE(a.text.find("launch_fast<128,256,32,128,32,1,8,8,2,0,0>"), std::string::npos);
}

TEST_F(QueryTest, EmptyDatabaseHasNothingToEmit) {
  ResultStore empty((dir_ / "empty.db").string());
  EXPECT_THROW(emit_header(empty.database(), testing::h200_environment(), EmitOptions{}), UserError);
}

TEST_F(QueryTest, EmittedHeaderCompilesWithNvcc) {
  const auto header = dir_ / "sgemm_tuned.h";
  EmitOptions options;
  options.database_label = "tune.db";
  write_file_atomically(header.string(), emit_header(store_->database(), testing::h200_environment(), options).text);
  const auto unit = dir_ / "use.cu";
  std::ofstream(unit) << "#include \"sgemm_tuned.h\"\n"
                         "cudaError_t call(float *a, float *b, float *c) {\n"
                         "  return sgemm_tuned(4097, 513, 77, 1.0f, a, b, 0.0f, c);\n}\n";
  const std::string cmd = "nvcc -arch=sm_90 -std=c++17 -c -I" + testing::source_dir() + "/kernel_templates -I" +
                          dir_.string() + " " + unit.string() + " -o " + (dir_ / "use.o").string() + " 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  EXPECT_TRUE(std::filesystem::exists(dir_ / "use.o"));
}

// Built against kernel_templates older than its tables (here a run-time that defines none of
// what the header checks), a header stops at the preprocessor with a sentence that says why,
// before its tables' initialisers could fail on fields the old TunedShape lacks.
TEST_F(QueryTest, AHeaderBuiltAgainstOlderKernelTemplatesSaysSo) {
  EmitOptions options;
  options.database_label = "tune.db";
  write_file_atomically((dir_ / "sgemm_tuned.h").string(),
                        emit_header(store_->database(), testing::h200_environment(), options).text);
  const auto old_templates = dir_ / "old_templates";
  std::filesystem::create_directories(old_templates);
  std::ofstream(old_templates / "sgemm_tuned_runtime.cuh") << "#pragma once\n";
  std::ofstream(old_templates / "cuda_runtime.h") << "#pragma once\n";  // preprocessing needs no CUDA
  const std::string cmd = "g++ -E -I" + old_templates.string() + " -x c++ " + (dir_ / "sgemm_tuned.h").string() +
                          " -o /dev/null 2>&1";
  const testing::CommandOutput out = testing::run_command(cmd);
  EXPECT_NE(out.exit_code, 0) << cmd;
  EXPECT_NE(out.text.find("this header's tables were written for newer kernel_templates"), std::string::npos)
      << out.text;
}

TEST_F(QueryTest, ExportImportRoundTripsAndImportIsIdempotent) {
  const nlohmann::json exported = export_database(store_->database());
  ASSERT_EQ(exported["runs"].size(), 1u);
  EXPECT_EQ(exported["version"], 2);
  EXPECT_EQ(exported["runs"][0]["results"]["rows"].size(), 3u);
  EXPECT_EQ(exported["kernels"].size(), 1u);

  ResultStore other((dir_ / "other.db").string());
  const CodeRebuilder rebuilder(KernelSource::embedded(), {});
  const ImportSummary first = import_database(other.database(), exported, "export.json", &rebuilder);
  EXPECT_EQ(first.runs_added, 1u);
  EXPECT_EQ(first.results_added, 3u);
  EXPECT_EQ(first.kernels_added, 1u);  // compiled again here: the same bytes
  EXPECT_TRUE(first.kernels_dropped.empty());
  const ImportSummary second = import_database(other.database(), exported, "export.json", &rebuilder);
  EXPECT_EQ(second.runs_added, 0u);
  EXPECT_EQ(second.runs_already_present, 1u);
  EXPECT_EQ(second.kernels_added, 0u);
  // Same content, same answers, byte-identical header.
  EXPECT_EQ(export_database(other.database()), exported);
  EmitOptions options;
  options.database_label = "tune.db";
  EXPECT_EQ(emit_header(other.database(), testing::h200_environment(), options).text,
            emit_header(store_->database(), testing::h200_environment(), options).text);
}

// An export written by sgemm-tune before version 2 of the format (results as objects,
// invalid outcomes included) still imports; invalid outcomes are derived now, not stored.
TEST_F(QueryTest, AVersionOneExportStillImports) {
  std::ifstream in(testing::source_dir() + "/tests/data/export_v1.json");
  const nlohmann::json v1 = nlohmann::json::parse(in);
  ASSERT_EQ(v1["version"], 1);
  ResultStore other((dir_ / "other.db").string());
  const CodeRebuilder rebuilder(KernelSource::embedded(), {});
  const ImportSummary s = import_database(other.database(), v1, "export_v1.json", &rebuilder);
  EXPECT_EQ(s.runs_added, 1u);
  EXPECT_EQ(s.results_added, 3u);
  // Its machine code is kept only if this template still compiles to the same bytes.
  EXPECT_EQ(s.kernels_added + s.kernels_dropped.size(), 1u);
  EXPECT_EQ(best_entries(other.database(), testing::h200_environment()).size(), 2u);
}

TEST_F(QueryTest, ImportRejectsWhatIsNotAnExport) {
  ResultStore other((dir_ / "other.db").string());
  EXPECT_THROW(import_database(other.database(), nlohmann::json{{"runs", 1}}, "x.json", nullptr), UserError);
  nlohmann::json bad = export_database(store_->database());
  bad["runs"][0]["results"]["columns"].push_back("colour");
  for (auto &row : bad["runs"][0]["results"]["rows"]) row.push_back("red");
  EXPECT_THROW(import_database(other.database(), bad, "x.json", nullptr), UserError);
  // All or nothing: the failed import left no run behind.
  Statement st = other.database().prepare("SELECT COUNT(*) FROM runs");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.column_int(0), 0);
}

}  // namespace
}  // namespace sgemm_tune
