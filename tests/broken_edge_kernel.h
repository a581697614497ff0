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
  // The first line of detail::edge_body, which every body's kernel of the edge kernel and of
  // the kernel of any operands runs (the template has no other line like it); the assertion
  // fails the edge kernel's alone.
  const std::string body = "  if (edge_kernel_body(SgemmTile{SGEMM_TUNE_TILE_ARGS}, operands, lda, ldb, ldc) != kEdgeBody ||";
  for (auto &[name, text] : source.headers) {
    const std::size_t at = text.find(body);
    if (at == std::string::npos) continue;
    text.insert(at, "  static_assert(is_any_body(kBody) || BM < 0, \"this edge kernel does not compile\");\n");
    return source;
  }
  ADD_FAILURE() << "the edge kernel's body was not found in the template";
  return source;
}

}  // namespace sgemm_tune::testing
