// The kernel template with an edge kernel that NVRTC refuses, whatever the tile: its fast
// kernel and its kernel of any operands compile as before. For tests of what a companion
// kernel that fails to compile fails.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "tuner/compile/kernel_source.h"

namespace sgemm_tune::testing {

inline KernelSource with_broken_edge_kernel() {
  KernelSource source = KernelSource::embedded();
  // The first line of sgemm_double_buffered_edges's body (the template has no other).
  const std::string body = "  using namespace detail;\n";
  for (auto &[name, text] : source.headers) {
    const std::size_t at = text.find(body);
    if (at == std::string::npos) continue;
    text.insert(at, "  static_assert(BM < 0, \"this edge kernel does not compile\");\n");
    return source;
  }
  ADD_FAILURE() << "the edge kernel's body was not found in the template";
  return source;
}

}  // namespace sgemm_tune::testing
