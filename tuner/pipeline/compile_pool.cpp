#include "tuner/pipeline/compile_pool.h"

#include <chrono>

namespace sgemm_tune {

CompilePool::CompilePool(KernelSource source, CompileOptions options, std::vector<SgemmTile> tiles, int jobs,
                         KernelVariant variant)
    : source_(std::move(source)), options_(std::move(options)), tiles_(std::move(tiles)), variant_(variant) {
  const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(std::max(jobs, 1)), tiles_.size());
  for (std::size_t i = 0; i < n; ++i) workers_.emplace_back([this] { work(); });
}

CompilePool::~CompilePool() {
  stop_ = true;
  for (auto &w : workers_) w.join();
}

void CompilePool::work() {
  while (!stop_) {
    const std::size_t i = next_job_++;
    if (i >= tiles_.size()) return;
    CompileOutcome out;
    out.tile = tiles_[i];
    const auto start = std::chrono::steady_clock::now();
    try {
      out.kernel = compile_kernel(source_, options_, tiles_[i], variant_);
    } catch (const CompileError &e) {
      out.error = e.what();
      out.log = e.log();
    } catch (const std::exception &e) {
      out.error = e.what();
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.push_back(std::move(out));
    }
    ready_.notify_one();
  }
}

std::optional<CompileOutcome> CompilePool::next() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (delivered_ == tiles_.size()) return std::nullopt;
  ready_.wait(lock, [this] { return !done_.empty(); });
  CompileOutcome out = std::move(done_.front());
  done_.pop_front();
  ++delivered_;
  return out;
}

}  // namespace sgemm_tune
