#include <gtest/gtest.h>

#include "tuner/compile/ptxas_report.h"

namespace sgemm_tune {
namespace {

const std::string kReport =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z3fooPf' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z3fooPf\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 12 registers, used 0 barriers, 380 bytes cmem[0]\n"
    "ptxas info    : Compiling entry function '_Z3barPf' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z3barPf\n"
    "    48 bytes stack frame, 40 bytes spill stores, 36 bytes spill loads\n"
    "ptxas info    : Used 255 registers, used 1 barriers, 4096 bytes smem, 400 bytes cmem[0]\n";

TEST(PtxasReport, ReadsTheNamedFunction) {
  const auto foo = parse_ptxas_report(kReport, "_Z3fooPf");
  ASSERT_TRUE(foo);
  EXPECT_EQ(foo->registers, 12);
  EXPECT_FALSE(foo->spills());
  EXPECT_EQ(foo->static_smem_bytes, 0);

  const auto bar = parse_ptxas_report(kReport, "_Z3barPf");
  ASSERT_TRUE(bar);
  EXPECT_EQ(bar->registers, 255);
  EXPECT_EQ(bar->spill_store_bytes, 40);
  EXPECT_EQ(bar->spill_load_bytes, 36);
  EXPECT_TRUE(bar->spills());
  EXPECT_EQ(bar->static_smem_bytes, 4096);
}

TEST(PtxasReport, MissingFunctionIsNotInvented) {
  EXPECT_FALSE(parse_ptxas_report(kReport, "_Z3bazPf"));
  EXPECT_FALSE(parse_ptxas_report("", "_Z3fooPf"));
}

}  // namespace
}  // namespace sgemm_tune
