// Hands tasks to whichever of its workers is free, first come first served, each worker a
// thread of its own, and gives their results back to the one thread that submits them,
// in the order they finish. What a worker stands for (a GPU and the bench on it) is the
// tasks' business: a task is told which worker runs it, and a worker runs one at a time.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace sgemm_tune {

template <class Result>
class Dispatcher {
 public:
  using Task = std::function<Result(std::size_t worker)>;

  // `on_finished` is called on the worker's thread after each result is ready to take,
  // e.g. to wake the thread that takes them.
  explicit Dispatcher(std::size_t workers, std::function<void()> on_finished = {})
      : on_finished_(std::move(on_finished)) {
    for (std::size_t w = 0; w < workers; ++w) threads_.emplace_back([this, w] { work(w); });
  }
  // Drops the tasks not started, lets those running end, and joins the workers.
  ~Dispatcher() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closing_ = true;
      waiting_.clear();
    }
    work_ready_.notify_all();
    for (std::thread &t : threads_) t.join();
  }
  Dispatcher(const Dispatcher &) = delete;
  Dispatcher &operator=(const Dispatcher &) = delete;

  std::size_t workers() const { return threads_.size(); }

  // Runs `task` on the first worker that is free: at once if one is.
  void submit(Task task) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      waiting_.push_back(std::move(task));
      ++outstanding_;
    }
    work_ready_.notify_one();
  }

  // The result of a task that has finished, or nullopt when none has; a task that threw
  // has its exception thrown here.
  std::optional<Result> try_take() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (finished_.empty()) return std::nullopt;
    return pop_finished(lock);
  }

  // Waits for a task to finish; only while busy().
  Result take() {
    std::unique_lock<std::mutex> lock(mutex_);
    result_ready_.wait(lock, [this] { return !finished_.empty(); });
    return pop_finished(lock);
  }

  // Tasks submitted whose results have not yet been taken.
  bool busy() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return outstanding_ > 0;
  }

  // Drops the tasks that no worker has started; returns how many.
  std::size_t cancel_waiting() {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::size_t dropped = waiting_.size();
    waiting_.clear();
    outstanding_ -= dropped;
    return dropped;
  }

 private:
  struct Finished {
    std::optional<Result> result;
    std::exception_ptr error;
  };

  void work(std::size_t worker) {
    while (true) {
      Task task;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        work_ready_.wait(lock, [this] { return closing_ || !waiting_.empty(); });
        if (waiting_.empty()) return;  // closing
        task = std::move(waiting_.front());
        waiting_.pop_front();
      }
      Finished done;
      try {
        done.result.emplace(task(worker));
      } catch (...) {
        done.error = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        finished_.push_back(std::move(done));
      }
      result_ready_.notify_one();
      if (on_finished_) on_finished_();
    }
  }

  Result pop_finished(std::unique_lock<std::mutex> &lock) {
    Finished done = std::move(finished_.front());
    finished_.pop_front();
    --outstanding_;
    lock.unlock();
    if (done.error) std::rethrow_exception(done.error);
    return std::move(*done.result);
  }

  std::function<void()> on_finished_;
  mutable std::mutex mutex_;
  std::condition_variable work_ready_, result_ready_;
  std::deque<Task> waiting_;
  std::deque<Finished> finished_;
  std::size_t outstanding_ = 0;  // waiting, running or finished but not taken
  bool closing_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace sgemm_tune
