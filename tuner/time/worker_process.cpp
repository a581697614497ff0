#include "tuner/time/worker_process.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sgemm_tune {

WorkerProcess::WorkerProcess(const std::string &binary) {
  int to_child[2], from_child[2];
  if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("cannot create pipes for the measurement worker: ") + std::strerror(errno));
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error(std::string("cannot start the measurement worker: ") + std::strerror(errno));
  if (pid_ == 0) {
    dup2(to_child[0], 0);
    dup2(from_child[1], 1);
    execl(binary.c_str(), binary.c_str(), "__measure-worker", static_cast<char *>(nullptr));
    _exit(127);
  }
  close(to_child[0]);
  close(from_child[1]);
  in_ = to_child[1];
  out_ = from_child[0];
}

void WorkerProcess::stop() {
  if (pid_ <= 0) return;
  close(in_);
  close(out_);
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

bool WorkerProcess::send(const std::string &bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(in_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::optional<std::string> WorkerProcess::receive(double timeout_s, std::string &why) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (true) {
    const auto nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return line;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      why = "timeout: no answer within " + std::to_string(static_cast<int>(timeout_s)) + " s; worker stopped";
      stop();
      return std::nullopt;
    }
    pollfd p{out_, POLLIN, 0};
    const int r = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    char chunk[4096];
    const ssize_t n = read(out_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<std::size_t>(n));
      continue;
    }
    why = reap();
    return std::nullopt;
  }
}

std::string WorkerProcess::reap() {
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  close(in_);
  close(out_);
  return WIFSIGNALED(status) ? "the worker was killed by signal " + std::to_string(WTERMSIG(status))
                             : "the worker exited with status " + std::to_string(WEXITSTATUS(status));
}

}  // namespace sgemm_tune
