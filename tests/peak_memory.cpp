// peak_memory COMMAND [ARGUMENT ...]: runs the command, then prints the most resident memory
// that it or any process it waited for reached (Linux passes each waited process's peak up
// to its parent) as "peak_memory_kb N" on standard error, and exits with the command's
// status. A process of its own, and a small one, so that the figure is the command's: a test
// process that measured its children itself would count its own peak too (a child records
// its parent's memory as it starts).
#include <cstdio>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: peak_memory COMMAND [ARGUMENT ...]\n");
    return 2;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    std::perror("peak_memory: fork");
    return 2;
  }
  if (pid == 0) {
    execvp(argv[1], argv + 1);
    std::perror("peak_memory: cannot run the command");
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) < 0) {
    std::perror("peak_memory: wait4");
    return 2;
  }
  std::fprintf(stderr, "peak_memory_kb %ld\n", usage.ru_maxrss);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
