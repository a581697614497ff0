// The dispatcher's scheduling alone, with tasks that stand in for measurements (they wait
// on each other or sleep): who runs what, at once or in turn, and what comes back. The
// real workers (a bench on each GPU) are the GPU tests' (test_gpu_pipeline.cpp).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "tuner/pipeline/dispatcher.h"
#include "tuner/pipeline/wakeup.h"

namespace sgemm_tune {
namespace {

using namespace std::chrono_literals;

struct Ran {
  int task = 0;
  std::size_t worker = 0;
};

// A gate that tasks wait at until it opens; counts who arrived.
class Gate {
 public:
  // Waits until open (true) or until `limit` passes (false).
  bool arrive_and_wait(std::chrono::milliseconds limit = 10s) {
    std::unique_lock<std::mutex> lock(mutex_);
    ++arrived_;
    changed_.notify_all();
    return changed_.wait_for(lock, limit, [this] { return open_; });
  }
  bool wait_for_arrivals(int n, std::chrono::milliseconds limit = 10s) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, limit, [&] { return arrived_ >= n; });
  }
  int arrived() {
    std::lock_guard<std::mutex> lock(mutex_);
    return arrived_;
  }
  void open() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      open_ = true;
    }
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int arrived_ = 0;
  bool open_ = false;
};

TEST(Dispatcher, EveryTaskRunsOnceAndComesBack) {
  Dispatcher<Ran> d(3);
  EXPECT_EQ(d.workers(), 3u);
  EXPECT_FALSE(d.busy());
  for (int i = 0; i < 50; ++i) d.submit([i](std::size_t w) { return Ran{i, w}; });
  std::multiset<int> seen;
  while (d.busy()) {
    const Ran r = d.take();
    EXPECT_LT(r.worker, 3u);
    seen.insert(r.task);
  }
  EXPECT_EQ(seen.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(seen.count(i), 1u) << i;
  EXPECT_FALSE(d.try_take());
}

TEST(Dispatcher, TwoWorkersRunTwoTasksAtOnce) {
  // Each task waits until both have started: with one worker at a time they never would.
  Dispatcher<Ran> d(2);
  Gate gate;
  std::atomic<int> met{0};
  for (int i = 0; i < 2; ++i)
    d.submit([&, i](std::size_t w) {
      gate.arrive_and_wait(0ms);
      if (gate.wait_for_arrivals(2)) ++met;
      return Ran{i, w};
    });
  const Ran a = d.take(), b = d.take();
  EXPECT_EQ(met, 2) << "the second task did not start while the first ran";
  EXPECT_NE(a.worker, b.worker);
}

TEST(Dispatcher, ATaskWaitsForAFreeWorkerAndTakesTheFirstThatFrees) {
  Dispatcher<Ran> d(2);
  Gate slow;
  std::atomic<bool> third_started{false};
  d.submit([&](std::size_t w) {  // holds its worker until the gate opens
    slow.arrive_and_wait();
    return Ran{0, w};
  });
  ASSERT_TRUE(slow.wait_for_arrivals(1));
  d.submit([](std::size_t w) { return Ran{1, w}; });
  const Ran quick = d.take();
  EXPECT_EQ(quick.task, 1);
  d.submit([&](std::size_t w) {
    third_started = true;
    return Ran{2, w};
  });
  const Ran third = d.take();
  EXPECT_EQ(third.task, 2) << "the free worker did not take the task while the other was held";
  EXPECT_EQ(third.worker, quick.worker);
  slow.open();
  const Ran held = d.take();
  EXPECT_EQ(held.task, 0);
  EXPECT_NE(held.worker, quick.worker);
  EXPECT_FALSE(d.busy());
}

TEST(Dispatcher, AWorkerRunsOneTaskAtATime) {
  constexpr std::size_t kWorkers = 3;
  Dispatcher<Ran> d(kWorkers);
  std::atomic<int> in_task[kWorkers] = {};
  std::atomic<bool> overlap{false};
  for (int i = 0; i < 60; ++i)
    d.submit([&, i](std::size_t w) {
      if (in_task[w]++ != 0) overlap = true;
      std::this_thread::sleep_for(1ms);
      --in_task[w];
      return Ran{i, w};
    });
  std::set<std::size_t> workers;
  while (d.busy()) workers.insert(d.take().worker);
  EXPECT_FALSE(overlap);
  EXPECT_EQ(workers.size(), kWorkers) << "60 tasks of 1 ms each, and a worker never took one";
}

TEST(Dispatcher, ResultsComeBackInTheOrderTheyFinish) {
  Dispatcher<Ran> d(2);
  Gate first;
  d.submit([&](std::size_t w) {
    first.arrive_and_wait();
    return Ran{0, w};
  });
  ASSERT_TRUE(first.wait_for_arrivals(1));
  d.submit([](std::size_t w) { return Ran{1, w}; });
  EXPECT_EQ(d.take().task, 1);  // submitted second, finished first
  first.open();
  EXPECT_EQ(d.take().task, 0);
}

TEST(Dispatcher, ATaskThatThrowsHasItsErrorTakenAndTheWorkerGoesOn) {
  Dispatcher<Ran> d(1);
  d.submit([](std::size_t) -> Ran { throw std::runtime_error("bench gone"); });
  d.submit([](std::size_t w) { return Ran{1, w}; });
  try {
    d.take();
    FAIL() << "the task's error was not thrown";
  } catch (const std::runtime_error &e) {
    EXPECT_STREQ(e.what(), "bench gone");
  }
  EXPECT_TRUE(d.busy());
  EXPECT_EQ(d.take().task, 1);
  EXPECT_FALSE(d.busy());
}

TEST(Dispatcher, CancellingDropsOnlyWhatNoWorkerStarted) {
  Dispatcher<Ran> d(1);
  Gate held;
  std::atomic<int> ran{0};
  d.submit([&](std::size_t w) {
    held.arrive_and_wait();
    ++ran;
    return Ran{0, w};
  });
  ASSERT_TRUE(held.wait_for_arrivals(1));
  for (int i = 1; i <= 3; ++i)
    d.submit([&, i](std::size_t w) {
      ++ran;
      return Ran{i, w};
    });
  EXPECT_EQ(d.cancel_waiting(), 3u);
  EXPECT_TRUE(d.busy()) << "the task in hand still has to come back";
  held.open();
  EXPECT_EQ(d.take().task, 0);
  EXPECT_FALSE(d.busy());
  EXPECT_EQ(ran, 1);
}

TEST(Dispatcher, DestroyedWithWorkLeftFinishesWhatRunsAndDropsTheRest) {
  std::atomic<int> ran{0};
  Gate held;
  std::thread opener;
  {
    Dispatcher<Ran> d(1);
    d.submit([&](std::size_t w) {
      held.arrive_and_wait();
      ++ran;
      return Ran{0, w};
    });
    for (int i = 1; i < 10; ++i)
      d.submit([&, i](std::size_t w) {
        ++ran;
        return Ran{i, w};
      });
    ASSERT_TRUE(held.wait_for_arrivals(1));
    opener = std::thread([&] {
      std::this_thread::sleep_for(50ms);
      held.open();
    });
  }  // waits for the task in hand, and only for it
  opener.join();
  EXPECT_EQ(ran, 1);
}

TEST(Dispatcher, EachFinishedTaskWakesTheTakingThread) {
  Wakeup wakeup;
  Dispatcher<Ran> d(2, [&] { wakeup.notify(); });
  std::uint64_t seen = wakeup.count();
  d.submit([](std::size_t w) {
    std::this_thread::sleep_for(20ms);
    return Ran{0, w};
  });
  // Woken by the task's end, long before the time limit.
  const auto start = std::chrono::steady_clock::now();
  while (!d.try_take()) {
    ASSERT_LT(std::chrono::steady_clock::now() - start, 5s) << "never woken";
    wakeup.wait(seen, 10s);
    seen = wakeup.count();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_GE(wakeup.count(), 1u);
}

}  // namespace
}  // namespace sgemm_tune
