// NVRTC compilation of one tile configuration of the kernel template: program ->
// name expression -> compile -> cubin + lowered name + ptxas resource report.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "tuner/compile/kernel_source.h"
#include "tuner/compile/ptxas_report.h"
#include "tuner/space/tile.h"

namespace sgemm_tune {

struct CompileOptions {
  std::string arch = "sm_90";      // the real architecture compiled for
  std::vector<std::string> extra;  // appended to the fixed options (nvrtc_compiler.cpp says why each)

  // Everything passed to nvrtcCompileProgram, in order.
  std::vector<std::string> nvrtc_options() const;
  // The same, space-separated: recorded in the database as part of the provenance.
  std::string to_string() const;
};

// A tile's edge kernel or kernel of any operands, compiled beside its fast kernel (each in a
// program of its own) for the BLAS shapes of a run that the fast kernel cannot run.
struct CompanionKernel {
  KernelVariant variant = KernelVariant::edges;
  // The plain body's symbol, from which the others' derive (edge_body_symbol); absent from
  // the cubin where the plain body was not compiled.
  std::string lowered_name;
  std::string cubin;  // holds the kernels of `bodies` only
  EdgeBodies bodies = kEveryEdgeBody;
  std::array<ResourceUsage, sgemm_tune_kernels::kEdgeBodies> body_usage{};  // of each body in `bodies`
};

// A companion to compile: the kernel and which of its bodies.
struct CompanionRequest {
  KernelVariant variant = KernelVariant::edges;
  EdgeBodies bodies = kEveryEdgeBody;
  friend bool operator==(const CompanionRequest &a, const CompanionRequest &b) {
    return a.variant == b.variant && a.bodies == b.bodies;
  }
};

// A companion NVRTC refused. Only the shapes it would run fail: the fast kernel and the other
// companions still run theirs.
struct CompanionFailure {
  KernelVariant variant = KernelVariant::edges;
  std::string error;  // one line
  std::string log;    // NVRTC's full log
};

struct CompiledKernel {
  SgemmTile tile{};
  std::string name_expression;
  // The symbol to look up in the loaded cubin; of an edge kernel or kernel of any operands,
  // its plain body's, which the cubin lacks where that body was not compiled.
  std::string lowered_name;
  std::string cubin;  // bytes of the ELF image
  // An edge kernel's or kernel of any operands': the most of its compiled bodies', and each
  // one's in body_usage (zero for a body not compiled).
  ResourceUsage usage;
  std::array<ResourceUsage, sgemm_tune_kernels::kEdgeBodies> body_usage{};
  std::string log;
  double seconds = 0;
  std::vector<CompanionKernel> companions;  // compile_companions; empty when not asked for
  std::vector<CompanionFailure> companion_failures;  // those of the companions asked for that failed
};

// A failed compilation. what() is one line; log() holds everything NVRTC said.
class CompileError : public std::runtime_error {
 public:
  CompileError(const std::string &what, std::string log) : std::runtime_error(what), log_(std::move(log)) {}
  const std::string &log() const { return log_; }

 private:
  std::string log_;
};

// Thread-safe: each call owns its NVRTC program, which holds the kernel `variant` names:
// for an edge kernel or kernel of any operands, its bodies in `bodies` (at least one), in
// one cubin; lowered_name is still the plain body's symbol. Throws CompileError.
CompiledKernel compile_kernel(const KernelSource &source, const CompileOptions &options, const SgemmTile &tile,
                              KernelVariant variant = KernelVariant::exact, EdgeBodies bodies = kEveryEdgeBody);

// The kernel's tile's kernels `requests` name (edges, any, and which bodies), for timing BLAS
// shapes (shape.h) as sgemm_tuned runs them, into kernel.companions; one that fails to
// compile (or throws anything else) goes to kernel.companion_failures instead, so that it
// fails only the shapes it would run. Thread-safe.
void compile_companions(const KernelSource &source, const CompileOptions &options, CompiledKernel &kernel,
                        const std::vector<CompanionRequest> &requests);

// The plain body's symbol of the edge kernel or kernel of any operands whose body `body` has
// symbol `body_symbol`: the inverse of edge_body_symbol (sgemm_launch.h), checked against
// it; empty when `body_symbol` is no such kernel's.
std::string plain_body_symbol(const std::string &body_symbol, int body);

// Compiles every kernel the template instantiates for a tile, the fast one, its edge
// kernel's four and its kernel of any operands' four, in one program, and keeps no machine
// code: the check that the tile rules admit nothing the compiler refuses. Throws
// CompileError.
void compile_every_kernel(const KernelSource &source, const CompileOptions &options, const SgemmTile &tile);

// "13.0"
std::string nvrtc_version();

}  // namespace sgemm_tune
