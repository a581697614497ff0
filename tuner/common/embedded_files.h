// Files compiled into the binary (the kernel template, the database migrations), so that
// the tuner runs from any directory with the exact sources it was built with.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sgemm_tune {

struct EmbeddedFile {
  const char *name;
  std::string content;
};

// Defined in generated sources, one list per embedded group.
namespace kernel_files {
const std::vector<EmbeddedFile> &embedded_files();
}
namespace migration_files {
const std::vector<EmbeddedFile> &embedded_files();
}

}  // namespace sgemm_tune
