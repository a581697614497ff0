#include "tuner/pipeline/run_tally.h"

#include <stdexcept>

namespace sgemm_tune {
namespace {
// The events listed first in RunEvent, up to `taken_again`.
bool settles(RunEvent event) { return event <= RunEvent::taken_again; }
}  // namespace

RunEvent measurement_event(CandidateStatus status) {
  switch (status) {
    case CandidateStatus::ok: return RunEvent::measured_ok;
    case CandidateStatus::wrong_result: return RunEvent::wrong_result;
    case CandidateStatus::launch_failed: return RunEvent::launch_failed;
    default: throw std::logic_error("a measurement cannot be " + std::string(to_string(status)));
  }
}

RunTally::RunTally(std::function<void(const ProgressUpdate &)> progress, Clock::time_point start)
    : progress_callback_(std::move(progress)), start_(start) {}

void RunTally::count(RunEvent event, std::string_view reason) {
  TuneCounts &c = counts_;
  switch (event) {
    case RunEvent::invalid: ++c.invalid; break;
    case RunEvent::pruned: ++c.pruned[std::string(reason)]; break;
    case RunEvent::compile_failed: ++c.compile_failed, ++progress_.failed; break;
    case RunEvent::compiled: ++c.compiled, ++progress_.compiled; break;
    case RunEvent::reused_whole: break;
    case RunEvent::deferred: ++c.deferred; break;
    case RunEvent::taken_again: ++c.taken_again; break;
    case RunEvent::pruned_after_compile: ++c.pruned[std::string(reason)]; break;
    case RunEvent::survived: ++c.survivors; break;
    case RunEvent::timed: ++progress_.timed; break;
    case RunEvent::measured_ok: ++c.measurements, ++c.ok; break;
    case RunEvent::stopped_early: ++c.stopped_early; break;
    case RunEvent::wrong_result: ++c.measurements, ++c.wrong_result; break;
    case RunEvent::launch_failed: ++c.measurements, ++c.launch_failed; break;
    case RunEvent::reused: ++c.reused; break;
    case RunEvent::occupancy_mismatch: ++c.occupancy_model_mismatches; break;
    case RunEvent::companion_failed: ++c.companion_failed; break;
  }
  if (settles(event)) ++progress_.done;
}

void RunTally::enumerated(const Enumeration &en) {
  counts_.enumerated = en.enumerated;
  counts_.excluded_by_constraint = en.excluded_by_constraint;
  counts_.candidates = en.candidates.size();
}

void RunTally::note_best(double percent_of_cublas, double tflops) {
  if (percent_of_cublas <= progress_.best_percent) return;
  progress_.best_percent = percent_of_cublas;
  progress_.best_tflops = tflops;
}

void RunTally::measure_on(const std::vector<GpuInfo> &gpus) {
  progress_.devices.clear();
  for (const GpuInfo &g : gpus) progress_.devices.push_back(DeviceProgress{g.device, 0, 0});
}

void RunTally::measured_on(std::size_t lane, double seconds) {
  DeviceProgress &d = progress_.devices.at(lane);
  ++d.timed;
  d.gpu_seconds += seconds;
}

void RunTally::publish() {
  progress_.elapsed_seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  progress_.pruned = counts_.pruned_total();
  if (progress_callback_) progress_callback_(progress_);
}

}  // namespace sgemm_tune
