// Lets one thread sleep until any of several others has something for it: the tuning's
// main thread waits here for a compiled candidate or a measured one, whichever comes first.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace sgemm_tune {

class Wakeup {
 public:
  // Notifications so far: read before looking for work, then wait(seen), so that one that
  // comes in between is not missed.
  std::uint64_t count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return count_;
  }
  void notify() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++count_;
    }
    changed_.notify_all();
  }
  // Returns once there have been more than `seen` notifications, or after `timeout`.
  void wait(std::uint64_t seen, std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_for(lock, timeout, [&] { return count_ > seen; });
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::uint64_t count_ = 0;
};

}  // namespace sgemm_tune
