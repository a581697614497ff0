#include "tuner/pipeline/compile_pool.h"

#include <chrono>

namespace sgemm_tune {

CompilePool::CompilePool(KernelSource source, CompileOptions options, std::vector<SgemmTile> tiles, int jobs,
                         KernelVariant variant, std::function<void()> on_ready,
                         Companions companions)
    : source_(std::move(source)), options_(std::move(options)), tiles_(std::move(tiles)), variant_(variant),
      companions_(std::move(companions)), on_ready_(std::move(on_ready)) {
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
      CompiledKernel kernel = compile_kernel(source_, options_, tiles_[i], variant_);
      if (companions_) {
        const std::vector<CompanionRequest> requests = companions_(tiles_[i]);
        if (!requests.empty()) compile_companions(source_, options_, kernel, requests);
      }
      out.kernel = std::move(kernel);
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
    if (on_ready_) on_ready_();
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

std::optional<CompileOutcome> CompilePool::try_next() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (done_.empty()) return std::nullopt;
  CompileOutcome out = std::move(done_.front());
  done_.pop_front();
  ++delivered_;
  return out;
}

bool CompilePool::exhausted() {
  std::lock_guard<std::mutex> lock(mutex_);
  return delivered_ == tiles_.size();
}

}  // namespace sgemm_tune
