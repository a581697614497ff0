// Emission of the C++ header that carries tuned configurations into a user's build. The
// header holds, per tuned GPU, the best configuration of each tuned shape with the machine
// code that was timed for it (when the database kept it), and defines
//   cudaError_t sgemm_tuned(int M, int N, int K, float alpha, const float *A,
//                           const float *B, float beta, float *C, cudaStream_t stream = 0);
// Row-major, correct for any shape (kernel_templates/sgemm_tuned_select.h says which
// configuration serves which). The text depends only on the database and the template:
// emitting twice gives the same bytes.
#pragma once

#include <string>
#include <vector>

#include "tuner/compile/kernel_source.h"
#include "tuner/query/best.h"

namespace sgemm_tune {

struct EmitOptions {
  std::string database_label;     // how the banner names the database
  std::vector<std::string> gpus;  // empty: every tuned GPU
  // When the database kept no machine code for an entry (a run stopped before its end)
  // and the entry is fresh, the code is compiled again from this template: NVRTC gives
  // the same code for the same source, options and version. Null: never recompile.
  const KernelSource *kernel = nullptr;
};

struct EmittedHeader {
  std::string text;
  std::size_t entries = 0;
  std::size_t with_code = 0;  // entries that carry the timed machine code
  std::size_t stale = 0;
  std::vector<std::string> gpus;
};

// Throws UserError when there is nothing to emit.
EmittedHeader emit_header(Database &db, const CurrentEnvironment &env, const EmitOptions &options);

// Writes `text` to `path` through a temporary file and a rename: never half a header.
void write_file_atomically(const std::string &path, const std::string &text);

}  // namespace sgemm_tune
