// The report of a tuning on several GPUs, for people and for scripts: what each GPU
// measured, in how long, against which cuBLAS, and which GPU measured each result. Built
// from a report such as a run returns, without a GPU.
#include <sstream>

#include <gtest/gtest.h>

#include "tuner/pipeline/report.h"

namespace sgemm_tune {
namespace {

TuneReport two_gpu_report() {
  TuneReport r;
  r.space_name = "suite";
  r.arch = "sm_90";
  GpuInfo gpu;
  gpu.name = "NVIDIA H200";
  gpu.compute_major = 9;
  gpu.sm_count = 132;
  gpu.driver_version = "13.0";
  r.gpu = gpu;
  r.run_id = 7;
  r.db_path = "tune.db";
  r.devices = {DeviceReport{0, "0000:1b:00.0", 12, 40.26, {2.70}, {2.71}},
               DeviceReport{1, "0000:3b:00.0", 11, 39.5, {2.68}, {2.69}}};
  ShapeReport s;
  s.shape = Shape{4096, 4096, 4096};
  s.cublas_ms = 2.70;
  s.cublas_end_ms = 2.71;
  const SgemmTile tile{64, 128, 32, 32, 128, 4, 8, 4, 2, 0, 0};
  s.ranked = {RankedResult{tile, 2.58, 53.27, 104.0, 250, 4, 4.9e-7, 1},
              RankedResult{SgemmTile{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0}, 3.0, 45.8, 89.3, 139, 3, 0, 0},
              RankedResult{SgemmTile{128, 64, 16, 64, 32, 2, 4, 4, 3, 0, 0}, 3.1, 44.3, 87.1, 140, 3, 0, std::nullopt}};
  r.shapes = {s};
  r.counts.ok = 23;
  r.counts.measurements = 23;
  r.gpu_seconds = 79.76;
  return r;
}

TEST(TuneReport, TheSummarySaysWhatEachGpuMeasuredAndInHowLong) {
  std::ostringstream out;
  print_report(two_gpu_report(), out, 10);
  const std::string text = out.str();
  EXPECT_NE(text.find("on NVIDIA H200 x2 (132 SMs"), std::string::npos) << text;
  EXPECT_NE(text.find("measured on GPUs 0 (0000:1b:00.0): 12 candidates in 40.3 s; "
                      "1 (0000:3b:00.0): 11 candidates in 39.5 s"),
            std::string::npos)
      << text;
  // The second GPU's cuBLAS, which its results are compared with.
  EXPECT_NE(text.find("cuBLAS on GPU 1: 2.680 ms; at the end 2.690 ms"), std::string::npos) << text;
  // Each ranked result names its GPU; "-" for one measured by an earlier run.
  EXPECT_NE(text.find("%cuBLAS    error  GPU\n"), std::string::npos) << text;
  EXPECT_NE(text.find("104.0%  4.9e-07    1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("87.1%  0.0e+00    -\n"), std::string::npos) << text;
}

TEST(TuneReport, OneGpuKeepsTheTableAsItWasAndNamesTheGpu) {
  TuneReport r = two_gpu_report();
  r.devices.pop_back();
  std::ostringstream out;
  print_report(r, out, 10);
  const std::string text = out.str();
  EXPECT_NE(text.find("on NVIDIA H200 (132 SMs"), std::string::npos) << text;
  EXPECT_NE(text.find("measured on GPU 0 (0000:1b:00.0): 12 candidates in 40.3 s\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%cuBLAS    error\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("cuBLAS on GPU"), std::string::npos) << text;
}

TEST(TuneReport, JsonCarriesEachGpuAndWhichMeasuredEachResult) {
  const nlohmann::json j = report_to_json(two_gpu_report());
  ASSERT_EQ(j.at("devices").size(), 2u);
  const nlohmann::json &second = j.at("devices").at(1);
  EXPECT_EQ(second.at("device"), 1);
  EXPECT_EQ(second.at("pci_bus_id"), "0000:3b:00.0");
  EXPECT_EQ(second.at("candidates"), 11);
  EXPECT_DOUBLE_EQ(second.at("gpu_seconds").get<double>(), 39.5);
  EXPECT_EQ(second.at("cublas_ms"), nlohmann::json::array({2.68}));
  EXPECT_EQ(second.at("cublas_end_ms"), nlohmann::json::array({2.69}));
  const nlohmann::json &results = j.at("shapes").at(0).at("results");
  EXPECT_EQ(results.at(0).at("device"), 1);
  EXPECT_EQ(results.at(1).at("device"), 0);
  EXPECT_TRUE(results.at(2).at("device").is_null());
}

}  // namespace
}  // namespace sgemm_tune
