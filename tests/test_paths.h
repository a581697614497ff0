// Where the tests find the repository's files: the source tree they were built from, or
// SGEMM_TUNE_SOURCE_DIR when a build is run from another checkout (e.g. on a GPU machine).
#pragma once

#include <cstdlib>
#include <string>

namespace sgemm_tune::testing {

inline std::string source_dir() {
  if (const char *dir = std::getenv("SGEMM_TUNE_SOURCE_DIR")) return dir;
  return SGEMM_TUNE_SOURCE_DIR;
}

// The sgemm-tune binary: the one built beside the tests, or SGEMM_TUNE_BINARY.
inline std::string tuner_binary() {
  if (const char *path = std::getenv("SGEMM_TUNE_BINARY")) return path;
  return SGEMM_TUNE_BINARY;
}

}  // namespace sgemm_tune::testing
