// The timer on a real GPU, both ways (TimingMethod): what each counts, and that a launch
// which fails while a graph is being captured leaves the stream as it found it.
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "gpu_test.h"

#include "tuner/gpu/cuda_check.h"
#include "tuner/gpu/cuda_handles.h"
#include "tuner/gpu/device_kernels.h"
#include "tuner/time/timer.h"

namespace sgemm_tune {
namespace {

class GpuTimer : public testing::GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    stream_ = CudaStream::create();
    for (int s = 0; s < kSets; ++s) buffers_.push_back(DeviceFloats::allocate(kFloats, "timer test"));
  }
  // One fill of operand set `set`: a kernel as capturable as a candidate's.
  void launch(std::size_t set) { fill_uniform(buffers_.at(set).data(), kFloats, set, stream_.get()); }

  static constexpr int kSets = 4;
  static constexpr std::size_t kFloats = 1 << 20;
  CudaStream stream_;
  std::vector<DeviceFloats> buffers_;
};

TEST_F(GpuTimer, BackToBackTimesEachLaunch) {
  const Timing t = time_launches(TimingMethod::stream, stream_.get(), 1, 7, kSets, [&](std::size_t s) { launch(s); });
  EXPECT_EQ(t.samples, 7);
  EXPECT_EQ(t.repeats, 7);
  EXPECT_GT(t.min_ms, 0);
  EXPECT_LE(t.min_ms, t.median_ms);
  EXPECT_LE(t.median_ms, t.max_ms);
}

TEST_F(GpuTimer, GraphsReplayOneLaunchPerSetAndReportThePerLaunchTime) {
  std::vector<std::size_t> captured;
  const Timing t = time_launches(TimingMethod::graphs, stream_.get(), 1, 7, kSets, [&](std::size_t s) {
    captured.push_back(s);
    launch(s);
  });
  // The warm-up launch, then the captured round: every set once, in order. Replays do not
  // call back: the graph holds the launches.
  EXPECT_EQ(captured, (std::vector<std::size_t>{0, 0, 1, 2, 3}));
  EXPECT_EQ(t.samples, graph_samples(7, kSets));
  EXPECT_EQ(t.samples, 5);  // 7 launches are two rounds of 4; five replays at least
  EXPECT_EQ(t.repeats, t.samples * kSets);
  EXPECT_GT(t.min_ms, 0);
  EXPECT_LE(t.min_ms, t.median_ms);
  EXPECT_LE(t.median_ms, t.max_ms);
  cudaStreamCaptureStatus status{};
  ASSERT_EQ(cudaStreamIsCapturing(stream_.get(), &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);
}

TEST_F(GpuTimer, GraphsStopEarlyAfterTheReplaysAsked) {
  EarlyStop early;
  early.after = 3;
  early.threshold_ms = 1e-9;  // anything is slower
  const Timing t =
      time_launches(TimingMethod::graphs, stream_.get(), 0, 40, kSets, [&](std::size_t s) { launch(s); }, early);
  EXPECT_TRUE(t.stopped_early);
  EXPECT_EQ(t.samples, 3);
  EXPECT_EQ(t.repeats, 3 * kSets);
}

void not_a_kernel() {}

TEST_F(GpuTimer, ALaunchThatFailsUnderCaptureLeavesTheStreamUsable) {
  // The third launch is refused by the runtime (a host function is no kernel), which breaks
  // the capture: its own error comes out, and the capture is ended.
  const auto failing = [&](std::size_t s) {
    launch(s);
    if (s == 2)
      SGEMM_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void *>(&not_a_kernel), dim3(1), dim3(1), nullptr, 0,
                                        stream_.get()));
  };
  try {
    time_launches(TimingMethod::graphs, stream_.get(), 0, 7, kSets, failing);
    FAIL() << "the failed launch did not come out";
  } catch (const CudaError &e) {
    EXPECT_NE(e.code(), cudaSuccess);
    EXPECT_FALSE(e.sticky()) << e.what();
    EXPECT_NE(std::string(e.what()).find("cudaLaunchKernel"), std::string::npos) << e.what();
  }
  cudaStreamCaptureStatus status{};
  ASSERT_EQ(cudaStreamIsCapturing(stream_.get(), &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  // The stream still runs work and times it.
  const Timing t = time_launches(TimingMethod::graphs, stream_.get(), 0, 7, kSets, [&](std::size_t s) { launch(s); });
  EXPECT_GT(t.median_ms, 0);
  EXPECT_EQ(cudaStreamSynchronize(stream_.get()), cudaSuccess);
}

}  // namespace
}  // namespace sgemm_tune
