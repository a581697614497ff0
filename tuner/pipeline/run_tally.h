// A run's counts and its progress line, changed in one place: everything that happens to
// a candidate is a RunEvent, and RunTally::count is the only thing that counts it.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include "tuner/common/status.h"
#include "tuner/gpu/device_info.h"
#include "tuner/pipeline/tune.h"
#include "tuner/space/enumerate.h"

namespace sgemm_tune {

enum class RunEvent {
  // Each of these settles a candidate, or a candidate's return for more shapes: it moves
  // the progress line on by one.
  invalid,         // breaks a rule, or tiles none of the shapes
  pruned,          // not compiled: pruned on the tile alone, or not taken up by the search
  compile_failed,
  compiled,        // then pruned_after_compile or survived
  reused_whole,    // every shape measured before, under the same fingerprint: not compiled again
  deferred,        // left for a later stage that a dry run cannot reach
  taken_again,     // compiled (or refused) again for shapes a later batch proposed it at
  // These do not.
  pruned_after_compile,
  survived,
  timed,               // a survivor verified and timed at its shapes
  measured_ok,         // one shape: a time
  stopped_early,       // ... cut short, as it could not win
  wrong_result,        // one shape
  launch_failed,       // one shape
  reused,              // one shape measured before
  occupancy_mismatch,  // the runtime's blocks per SM differ from the model's
  companion_failed,    // one shape of a compiled candidate: the kernel that runs it did not compile
};

// The event for a measurement of one candidate at one shape.
RunEvent measurement_event(CandidateStatus status);

class RunTally {
 public:
  using Clock = std::chrono::steady_clock;
  RunTally(std::function<void(const ProgressUpdate &)> progress, Clock::time_point start);

  void count(RunEvent event, std::string_view reason = {});

  void enumerated(const Enumeration &en);
  // Candidates the progress line counts towards its total. A staged search adds its second
  // stage only once it starts, so that the estimate of the time left stays honest.
  void expect(std::size_t candidates) { progress_.total += candidates; }
  void begin_stage(std::string stage) { progress_.stage = std::move(stage); }
  void note_best(double percent_of_cublas, double tflops);
  // The GPUs that measure, in the order that measured_on numbers them.
  void measure_on(const std::vector<GpuInfo> &gpus);
  // A survivor verified and timed on the `lane`th GPU in `seconds` (RunEvent::timed counts it overall).
  void measured_on(std::size_t lane, double seconds);
  // Sends the progress line to the callback.
  void publish();

  const TuneCounts &counts() const { return counts_; }

 private:
  std::function<void(const ProgressUpdate &)> progress_callback_;
  Clock::time_point start_;
  TuneCounts counts_;
  ProgressUpdate progress_;
};

}  // namespace sgemm_tune
