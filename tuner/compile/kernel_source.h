// The kernel template's source as the tuner compiles it: the entry header and the
// headers it includes, by name, with a hash over all of them. The hash is the template's
// identity in the database: change one character and earlier tunings become stale.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tuner/space/tile.h"

namespace sgemm_tune {

struct KernelSource {
  std::string origin;  // "embedded" or the directory the files were read from
  std::string entry_header;
  std::vector<std::pair<std::string, std::string>> headers;  // (include name, text), sorted
  std::string hash;

  // The template this binary was built with (kernel_templates/, embedded at build time).
  static KernelSource embedded();
  // The same files read from a directory, for trying an edited kernel without a rebuild.
  // Its sgemm_tile_rules.h must equal the built-in one (launch sizes come from it).
  static KernelSource from_directory(const std::string &directory);
};

// The three kernels of a tile: `exact` (sgemm_double_buffered, shapes the tile divides,
// the one that is timed), `edges` (sgemm_double_buffered_edges, any shape: four kernels,
// one per body, compiled into one cubin) and `any` (sgemm_double_buffered_any, any shape
// and operands: transposed, unaligned rows; four kernels too).
enum class KernelVariant { exact, edges, any };

// A set of the bodies (kEdgeBody*, sgemm_tile_rules.h) of an edge kernel or kernel of any
// operands: bit b for body b. A tuning run compiles only the bodies its BLAS shapes run,
// since each is a kernel of its own and, for the edge kernel, takes NVRTC about ten times
// as long as the fast kernel (bench/results/2026-12-05-cpu-companion-bodies).
using EdgeBodies = unsigned;
inline constexpr EdgeBodies kEveryEdgeBody = (1u << sgemm_tune_kernels::kEdgeBodies) - 1;
constexpr EdgeBodies edge_body_bit(int body) { return 1u << body; }
// Whether `bodies` names at least one body and nothing else.
constexpr bool is_edge_body_set(EdgeBodies bodies) { return bodies != 0 && (bodies & ~kEveryEdgeBody) == 0; }
// The lowest-numbered body of a set that is_edge_body_set accepts.
constexpr int first_edge_body(EdgeBodies bodies) {
  int body = 0;
  while (!(bodies & edge_body_bit(body))) ++body;
  return body;
}

// The C++ name of the kernel instantiated for a tile, for nvrtcAddNameExpression.
std::string kernel_name_expression(const SgemmTile &tile);
// The same for the tile's edge kernel (any shape): that of its plain body's kernel
// (sgemm_double_buffered_edges), which names the edge kernel wherever one name does.
std::string edges_name_expression(const SgemmTile &tile);
// The same for the kernel of edge body `body` (kEdgeBody*, sgemm_tile_rules.h) of the edge
// kernel or the kernel of any operands (`variant`, not exact).
std::string edge_body_name_expression(const SgemmTile &tile, KernelVariant variant, int body);
// The same for the tile's kernel of any shape and operands (its plain A's body).
std::string any_name_expression(const SgemmTile &tile);
// The name expression of `variant`.
std::string name_expression(const SgemmTile &tile, KernelVariant variant);

}  // namespace sgemm_tune
