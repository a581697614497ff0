// Machine code read from an export or a database file is never run or shipped as it is.
// The tuner compiles the same tile again, with the same template, compile options and
// NVRTC version, and keeps only code that comes out byte for byte the same (NVRTC is
// deterministic: genuine code always does). Code that cannot be rebuilt here (another
// template, other options, another NVRTC) cannot be checked, and is not used.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "tuner/compile/nvrtc_compiler.h"

namespace sgemm_tune {

// What the code claims to have been compiled from, as its run recorded it.
struct CodeOrigin {
  std::string template_hash;
  std::string compile_options;
  std::string nvrtc_version;
  std::string compute_capability;
  SgemmTile tile{};
};

struct RebuiltCode {
  std::optional<CompiledKernel> kernel;  // empty: not rebuilt, `why_not` says why
  std::string why_not;
};

// The template and options this tuner compiles with; requests whose origin differs are
// answered without compiling.
class CodeRebuilder {
 public:
  CodeRebuilder(KernelSource kernel, std::vector<std::string> extra_compile_options);

  // One answer per origin, in order: the kernel `variant` names. Compiles on every core; a
  // tile's kernel is compiled once per architecture for the rebuilder's lifetime.
  std::vector<RebuiltCode> rebuild(const std::vector<CodeOrigin> &origins,
                                   KernelVariant variant = KernelVariant::exact) const;

 private:
  std::optional<std::string> why_not_rebuildable(const CodeOrigin &origin, CompileOptions &options) const;

  KernelSource kernel_;
  std::vector<std::string> extra_;
  std::string nvrtc_version_;
  // What was compiled, by architecture, tile and variant: one rebuilder serves many checks.
  using Key = std::tuple<std::string, SgemmTile, KernelVariant>;
  mutable std::mutex mutex_;
  mutable std::map<Key, std::optional<CompiledKernel>> compiled_;
  mutable std::map<Key, std::string> errors_;
};

// The result of checking one stored piece of code against its rebuild.
enum class CodeCheck { same, differs, not_rebuilt };
CodeCheck compare_code(const RebuiltCode &rebuilt, const std::string &lowered_name, const std::string &cubin);

}  // namespace sgemm_tune
