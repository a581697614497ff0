// Programs built with nvcc against a header from `sgemm-tune emit`, as a user's build
// compiles it: tools/example and the BLAS check, which the emitted-header tests run (on the
// GPU, or where no GPU is needed) or only build.
#pragma once

#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include <sys/wait.h>

#include "test_paths.h"

namespace sgemm_tune::testing {

struct CommandOutput {
  int exit_code = -1;  // -1: could not be started, or ended by a signal
  std::string text;    // stdout and stderr together
};

// Runs `command_line` through the shell as it is and collects its standard output.
inline CommandOutput capture_stdout(const std::string &command_line) {
  CommandOutput out;
  FILE *pipe = popen(command_line.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) out.text.append(buf.data(), n);
  const int status = pclose(pipe);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

// Runs `command` with its standard error folded into the output.
inline CommandOutput run_command(const std::string &command) { return capture_stdout(command + " 2>&1"); }

// Compiles `source`, a program that includes SGEMM_TUNED_HEADER, into `program` for `arch`
// ("sm_90") with `header_dir`/sgemm_tuned.h, linking cuBLAS. `runner`, when given, is a
// command nvcc runs under (peak_memory_binary()).
inline CommandOutput build_program(const std::string &source, const std::string &header_dir, const std::string &arch,
                                   const std::string &program, const std::string &runner = "") {
  const std::string src = source_dir();
  return run_command((runner.empty() ? "" : runner + " ") + nvcc() + " -std=c++17 -O2 -arch=" + arch +
                     " '-DSGEMM_TUNED_HEADER=\"sgemm_tuned.h\"' -I" + src +
                     "/kernel_templates -I" + header_dir + " " + source + " -o " + program +
                     " -lcublas -Xlinker -rpath -Xlinker " + cuda_library_dir());
}

// tools/example, the program users start from.
inline CommandOutput build_example(const std::string &header_dir, const std::string &arch,
                                   const std::string &program, const std::string &runner = "") {
  return build_program(source_dir() + "/tools/example/main.cu", header_dir, arch, program, runner);
}

// tests/sgemm_blas_check.cu: the BLAS entry's argument checks (`invalid`, no GPU needed) and
// every layout, op pair, padding, offset and edge shape against cuBLAS (`cases`).
inline CommandOutput build_blas_check(const std::string &header_dir, const std::string &arch,
                                      const std::string &program) {
  return build_program(source_dir() + "/tests/sgemm_blas_check.cu", header_dir, arch, program);
}

// tools/bench_shapes: the benchmark of shapes nobody tuned.
inline CommandOutput build_bench_shapes(const std::string &header_dir, const std::string &arch,
                                        const std::string &program) {
  return build_program(source_dir() + "/tools/bench_shapes/main.cu", header_dir, arch, program);
}

// Runs it on `shapes` ("MxNxK").
inline CommandOutput run_example(const std::string &program, const std::vector<std::string> &shapes) {
  std::string command = program;
  for (const std::string &s : shapes) command += " " + s;
  return run_command(command);
}

}  // namespace sgemm_tune::testing
