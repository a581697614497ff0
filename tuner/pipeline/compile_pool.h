// Parallel NVRTC compilation: worker threads compile candidates while the caller takes
// finished ones, in order of completion, and times them on the GPU in the meantime.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tuner/compile/nvrtc_compiler.h"

namespace sgemm_tune {

struct CompileOutcome {
  SgemmTile tile{};
  std::optional<CompiledKernel> kernel;  // empty when compilation failed
  std::string error;                     // one line
  std::string log;                       // NVRTC's full log on failure
  double seconds = 0;
};

class CompilePool {
 public:
  // `on_ready` is called on a compiling thread after each outcome is ready to take, e.g.
  // to wake a caller that waits for other things too (try_next). Each kernel comes with
  // the tile's edge kernels that `companions` names for it (compile_companions; none when
  // it is empty); one of them that fails to compile is recorded in the kernel
  // (companion_failures) and fails only the shapes it would run.
  using Companions = std::function<std::vector<CompanionRequest>(const SgemmTile &)>;
  CompilePool(KernelSource source, CompileOptions options, std::vector<SgemmTile> tiles, int jobs,
              KernelVariant variant = KernelVariant::exact, std::function<void()> on_ready = {},
              Companions companions = {});
  ~CompilePool();  // stops taking new work and joins the workers
  CompilePool(const CompilePool &) = delete;
  CompilePool &operator=(const CompilePool &) = delete;

  // Blocks until a compilation finishes; nullopt once every candidate has been returned.
  std::optional<CompileOutcome> next();
  // A finished compilation if there is one; never blocks.
  std::optional<CompileOutcome> try_next();
  // Every candidate has been returned.
  bool exhausted();

 private:
  void work();

  const KernelSource source_;
  const CompileOptions options_;
  const std::vector<SgemmTile> tiles_;
  const KernelVariant variant_;
  const Companions companions_;
  const std::function<void()> on_ready_;
  std::atomic<std::size_t> next_job_{0};
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<CompileOutcome> done_;
  std::size_t delivered_ = 0;
  std::vector<std::thread> workers_;
};

}  // namespace sgemm_tune
