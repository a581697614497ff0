// The books a tuning run and a replay keep of a search's proposals: survivors only, each
// at a shape at most once, a survivor back later at shapes it was not proposed at, and
// what was never proposed settled once.
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "tuner/search/proposal_ledger.h"

namespace sgemm_tune {
namespace {

SgemmTile tile(int bn) { return SgemmTile{128, bn, 16, 64, 32, 2, 4, 4, 2, 0, 0}; }

const std::vector<SgemmTile> kSurvivors = {tile(32), tile(64), tile(128)};

// The message of the logic_error that taking `batch` throws; empty when it takes it.
std::string refusal(ProposalLedger &ledger, const SearchBatch &batch) {
  try {
    ledger.take(batch, "made-up");
  } catch (const std::logic_error &e) {
    return e.what();
  }
  return "";
}

TEST(ProposalLedger, ABatchWithoutShapesTakesEveryShape) {
  ProposalLedger ledger(kSurvivors, 3);
  const auto takes = ledger.take(SearchBatch{{tile(64), tile(32)}, {}, "", false}, "made-up");
  ASSERT_EQ(takes.size(), 2u);
  EXPECT_EQ(takes[0].tile, tile(64));  // in the batch's order
  EXPECT_EQ(takes[1].tile, tile(32));
  for (const auto &t : takes) {
    EXPECT_TRUE(t.first);
    EXPECT_EQ(t.shapes, (std::vector<bool>{true, true, true}));
  }
  EXPECT_EQ(ledger.never_proposed(), 1u);
}

TEST(ProposalLedger, ASurvivorComesBackAtTheShapesItWasNotProposedAt) {
  ProposalLedger ledger(kSurvivors, 3);
  const auto first = ledger.take(SearchBatch{{tile(64)}, {{0, 2}}, "", false}, "made-up");
  ASSERT_EQ(first.size(), 1u);
  EXPECT_TRUE(first[0].first);
  EXPECT_EQ(first[0].shapes, (std::vector<bool>{true, false, true}));
  const auto again = ledger.take(SearchBatch{{tile(64)}, {{1}}, "", true}, "made-up");
  ASSERT_EQ(again.size(), 1u);
  EXPECT_FALSE(again[0].first);
  EXPECT_EQ(again[0].shapes, (std::vector<bool>{false, true, false}));
  EXPECT_NE(refusal(ledger, SearchBatch{{tile(64)}, {{1}}, "", true}).find("where it was proposed"), std::string::npos);
}

TEST(ProposalLedger, RefusesWhatNoSearchMayPropose) {
  ProposalLedger ledger(kSurvivors, 2);
  EXPECT_NE(refusal(ledger, SearchBatch{{tile(256)}, {}, "", false}).find("not a survivor"), std::string::npos);
  EXPECT_NE(refusal(ledger, SearchBatch{{tile(32), tile(32)}, {{0}, {1}}, "", false}).find("twice in one batch"),
            std::string::npos)
      << "even at other shapes";
  ProposalLedger fresh(kSurvivors, 2);
  const std::string out_of_range = refusal(fresh, SearchBatch{{tile(64)}, {{2}}, "", false});
  EXPECT_EQ(out_of_range.rfind("made-up search proposed", 0), 0u) << out_of_range;
  EXPECT_NE(out_of_range.find("shape 2 of a run of 2"), std::string::npos) << out_of_range;
  EXPECT_NE(refusal(fresh, SearchBatch{{tile(64)}, {{}}, "", false}).find("at no shape"), std::string::npos);
  EXPECT_NE(refusal(fresh, SearchBatch{{tile(64), tile(128)}, {{0}}, "", false}).find("shapes for 1 tiles"),
            std::string::npos);
  EXPECT_EQ(refusal(fresh, SearchBatch{{tile(128)}, {{0}}, "", false}), "") << "a survivor at a shape of the run";
}

TEST(ProposalLedger, SettlesWhatWasNeverProposedOnce) {
  ProposalLedger ledger(kSurvivors, 2);
  ledger.take(SearchBatch{{tile(64)}, {{1}}, "", false}, "made-up");
  ledger.take(SearchBatch{{tile(128)}, {}, "", false}, "made-up");
  const auto left = ledger.settle();
  ASSERT_EQ(left.size(), 2u);
  EXPECT_EQ(left[0].tile, tile(32));  // in the survivors' order
  EXPECT_TRUE(left[0].never_proposed);
  EXPECT_EQ(left[0].shapes, (std::vector<bool>{true, true}));
  EXPECT_EQ(left[1].tile, tile(64));
  EXPECT_FALSE(left[1].never_proposed);
  EXPECT_EQ(left[1].shapes, (std::vector<bool>{true, false}));
  EXPECT_TRUE(ledger.settle().empty());
  EXPECT_EQ(ledger.never_proposed(), 0u);
  EXPECT_NE(refusal(ledger, SearchBatch{{tile(32)}, {}, "", false}).find("settled before"), std::string::npos)
      << "settled shapes are not proposed after";
}

}  // namespace
}  // namespace sgemm_tune
