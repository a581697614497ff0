// The tuner's side of one measurement worker process: started with pipes to its stdin and
// stdout, spoken to in lines, killed when it stops answering in time.
#pragma once

#include <optional>
#include <string>

#include <sys/types.h>

namespace sgemm_tune {

class WorkerProcess {
 public:
  // Starts `binary __measure-worker`.
  explicit WorkerProcess(const std::string &binary);
  ~WorkerProcess() { stop(); }
  WorkerProcess(const WorkerProcess &) = delete;
  WorkerProcess &operator=(const WorkerProcess &) = delete;

  // Kills the worker and waits for it; nothing once it has gone.
  void stop();
  // False when the worker stopped reading (it died).
  bool send(const std::string &bytes);
  // One line of reply, or nullopt with `why` set when the worker died or ran out of time
  // (then `why` starts with "timeout", and the worker is stopped).
  std::optional<std::string> receive(double timeout_s, std::string &why);
  bool alive() const { return pid_ > 0; }

 private:
  // The worker closed its stdout: it has exited. Says how.
  std::string reap();

  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  std::string buffer_;
};

}  // namespace sgemm_tune
