#include "tuner/cli/progress_printer.h"

#include <cstdio>
#include <string>

#include <unistd.h>

namespace sgemm_tune::cli {
namespace {

// " (GPU 0: 120 in 41 s, GPU 1: 118 in 40 s)" with several GPUs; nothing with one.
std::string timed_by_gpu(const ProgressUpdate &p) {
  if (p.devices.size() < 2) return "";
  std::string out = " (";
  for (std::size_t i = 0; i < p.devices.size(); ++i) {
    char part[80];
    std::snprintf(part, sizeof part, "%sGPU %d: %zu in %.0f s", i ? ", " : "", p.devices[i].device, p.devices[i].timed,
                  p.devices[i].gpu_seconds);
    out += part;
  }
  return out + ")";
}

}  // namespace

ProgressPrinter::ProgressPrinter(bool enabled) : enabled_(enabled), tty_(isatty(fileno(stderr)) != 0) {}

void ProgressPrinter::update(const ProgressUpdate &p) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  const bool last = p.done == p.total;
  const auto interval = tty_ ? std::chrono::milliseconds(200) : std::chrono::milliseconds(5000);
  if (!last && p.done > 0 && now - last_ < interval) return;
  last_ = now;
  if (!have_start_ || p.stage != stage_) {
    have_start_ = true;
    stage_ = p.stage;
    start_done_ = p.done;
    start_seconds_ = p.elapsed_seconds;
  }
  char eta[32] = "--";
  if (p.done > start_done_ && p.done < p.total) {
    const double rate = static_cast<double>(p.done - start_done_) / (p.elapsed_seconds - start_seconds_ + 1e-9);
    const double remaining = static_cast<double>(p.total - p.done) / rate;
    std::snprintf(eta, sizeof eta, "%.0f s", remaining);
  } else if (last) {
    std::snprintf(eta, sizeof eta, "0 s");
  }
  char best[64] = "";
  if (p.best_tflops > 0) std::snprintf(best, sizeof best, ", best %.2f TFLOP/s (%.1f%% of cuBLAS)", p.best_tflops, p.best_percent);
  const std::string by_gpu = timed_by_gpu(p);
  std::fprintf(stderr, "%s%s%s[%zu/%zu] compiled %zu, pruned %zu, timed %zu%s, failed %zu%s, %.0f s elapsed, ETA %s%s",
               tty_ ? "\r\033[K" : "", p.stage.c_str(), p.stage.empty() ? "" : " ", p.done, p.total, p.compiled,
               p.pruned, p.timed, by_gpu.c_str(), p.failed, best, p.elapsed_seconds, eta, tty_ ? "" : "\n");
  line_open_ = tty_;
  std::fflush(stderr);
}

void ProgressPrinter::message(const std::string &line) {
  if (!enabled_) return;
  std::fprintf(stderr, "%s%s\n", line_open_ ? "\r\033[K" : "", line.c_str());
  line_open_ = false;
  std::fflush(stderr);
}

void ProgressPrinter::finish() {
  if (enabled_ && line_open_) std::fprintf(stderr, "\n");
  line_open_ = false;
}

}  // namespace sgemm_tune::cli
