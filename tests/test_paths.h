// Where the tests find the repository's files and the tools they run: what this build was
// configured with, or the environment variable of the same name when it is set (e.g. on a
// GPU machine that runs a build made elsewhere).
#pragma once

#include <cstdlib>
#include <string>

namespace sgemm_tune::testing {

inline std::string from_environment_or(const char *variable, const char *built_in) {
  if (const char *value = std::getenv(variable)) return value;
  return built_in;
}

// The source tree the tests were built from.
inline std::string source_dir() { return from_environment_or("SGEMM_TUNE_SOURCE_DIR", SGEMM_TUNE_SOURCE_DIR); }

// The sgemm-tune binary built beside the tests.
inline std::string tuner_binary() { return from_environment_or("SGEMM_TUNE_BINARY", SGEMM_TUNE_BINARY); }

// tests/peak_memory.cpp, built beside the tests.
inline std::string peak_memory_binary() {
  return from_environment_or("SGEMM_TUNE_PEAK_MEMORY", SGEMM_TUNE_PEAK_MEMORY);
}

// The nvcc that compiles emitted headers into test programs.
inline std::string nvcc() { return from_environment_or("SGEMM_TUNE_NVCC", SGEMM_TUNE_NVCC); }

// Where those programs find libcublas when they run.
inline std::string cuda_library_dir() {
  return from_environment_or("SGEMM_TUNE_CUDA_LIBRARY_DIR", SGEMM_TUNE_CUDA_LIBRARY_DIR);
}

}  // namespace sgemm_tune::testing
