// Emission of the C++ header that carries tuned configurations into a user's build. The
// header holds, per tuned GPU, the best configuration of each tuned shape with the machine
// code of the template it was timed with, and defines
//   cudaError_t sgemm_tuned(int M, int N, int K, float alpha, const float *A,
//                           const float *B, float beta, float *C, cudaStream_t stream = 0);
// Row-major, correct for any shape (kernel_templates/sgemm_tuned_select.h says which
// configuration serves which). Each entry also carries the edge variant of its tile's fast
// kernel, which serves aligned shapes that no tuned tile divides. The text depends only on
// the database and the template: emitting twice gives the same bytes.
//
// A database may have come from elsewhere, so nothing in it becomes code: stored text
// goes into comments and string literals only through cpp_text.h, identifiers are
// numbered, tiles and compute capabilities are checked (best_entries), and machine code is
// compiled here, by the tuner, never copied from the database.
#pragma once

#include <string>
#include <vector>

#include "tuner/compile/kernel_source.h"
#include "tuner/query/best.h"

namespace sgemm_tune {

struct EmitOptions {
  std::string database_label;     // how the banner names the database
  std::vector<std::string> gpus;  // empty: every tuned GPU
  // The template that entries' machine code is compiled from, where it is the one they
  // were timed with (same hash, options and NVRTC: NVRTC then gives the timed bytes).
  // Null: no machine code; every entry is compiled from source in the user's build.
  const KernelSource *kernel = nullptr;
};

struct EmittedHeader {
  std::string text;
  std::size_t entries = 0;
  std::size_t with_code = 0;        // entries whose timed kernel is machine code
  std::size_t with_edges_code = 0;  // entries whose two edge kernels are machine code
  std::size_t stale = 0;
  // Entries whose code in the database differs from what the tuner compiles for them:
  // the database was altered (or made elsewhere); the compiled code is what ships.
  std::vector<std::string> code_mismatches;
  std::vector<std::string> gpus;
};

// Throws UserError when there is nothing to emit.
EmittedHeader emit_header(Database &db, const CurrentEnvironment &env, const EmitOptions &options);

// Writes `text` to `path` through a temporary file and a rename: never half a header.
void write_file_atomically(const std::string &path, const std::string &text);

// Throws a UserError naming `path` ("cannot write PATH: why", as write_file_atomically
// words it) where a file cannot be written there: its folder is missing or not writable, or
// a folder stands at the path. Touches no file of the user's (a probe file of its own name,
// created exclusively, is removed again). Asked before long work (emit compiles for
// minutes), so that the work is not thrown away at the end.
void check_writable(const std::string &path);

}  // namespace sgemm_tune
