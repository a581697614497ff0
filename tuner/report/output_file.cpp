#include "tuner/report/output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tuner/common/errors.h"

namespace sgemm_tune {
namespace {

// Removes the temporary file unless it was renamed into place.
struct TemporaryFile {
  std::string path;
  int fd = -1;
  bool kept = false;
  ~TemporaryFile() {
    if (fd >= 0) ::close(fd);
    if (!kept) ::unlink(path.c_str());
  }
};

[[noreturn]] void fail(const std::string &path, const std::string &action, int error) {
  throw UserError("cannot write " + path + ": " + action + ": " + std::strerror(error));
}

}  // namespace

void write_file_atomically(const std::string &path, const std::string &content) {
  std::vector<char> name(path.begin(), path.end());
  const std::string suffix = ".tmp-XXXXXX";
  name.insert(name.end(), suffix.begin(), suffix.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(path, "creating a temporary file beside it", errno);
  TemporaryFile tmp{name.data(), fd};

  // mkstemp makes the file private (0600); a report is for reading, as any new file is.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd, 0666 & ~mask) != 0) fail(path, "setting its permissions", errno);
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(path, "writing", n < 0 ? errno : EIO);
    written += static_cast<std::size_t>(n);
  }
  const int closed = ::close(tmp.fd);
  tmp.fd = -1;
  if (closed != 0) fail(path, "writing", errno);
  if (std::rename(tmp.path.c_str(), path.c_str()) != 0) fail(path, "moving the finished file into place", errno);
  tmp.kept = true;
}

}  // namespace sgemm_tune
