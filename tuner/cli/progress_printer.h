// Progress on stderr while a tuning runs: rewritten in place on a terminal, a line every
// few seconds otherwise (logs, CI), nothing with --quiet.
#pragma once

#include <chrono>
#include <string>

#include "tuner/pipeline/tune.h"

namespace sgemm_tune::cli {

class ProgressPrinter {
 public:
  explicit ProgressPrinter(bool enabled);
  void update(const ProgressUpdate &p);
  void message(const std::string &line);
  void finish();

 private:
  bool enabled_;
  bool tty_;
  bool line_open_ = false;
  std::chrono::steady_clock::time_point last_{};
  // The first update's state: candidates settled without compiling (invalid, pruned early)
  // are done at once and must not make the estimate of the rest look fast.
  bool have_start_ = false;
  std::string stage_;
  std::size_t start_done_ = 0;
  double start_seconds_ = 0;
};

}  // namespace sgemm_tune::cli
