// Writing a generated file whole or not at all: the content goes to a temporary file
// beside the destination, which is renamed over it only once everything is written, so a
// failure (a full disk, a directory that cannot be written) leaves no partial file.
#pragma once

#include <string>

namespace sgemm_tune {

// Throws UserError naming the path and the system's reason.
void write_file_atomically(const std::string &path, const std::string &content);

}  // namespace sgemm_tune
