#include "tuner/compile/nvrtc_compiler.h"

#include <chrono>

#include <nvrtc.h>

namespace sgemm_tune {
namespace {

class NvrtcProgram {
 public:
  NvrtcProgram(const std::string &text, const char *name, const std::vector<const char *> &header_texts,
               const std::vector<const char *> &header_names) {
    check(nvrtcCreateProgram(&prog_, text.c_str(), name, static_cast<int>(header_texts.size()),
                             header_texts.data(), header_names.data()),
          "nvrtcCreateProgram");
  }
  ~NvrtcProgram() {
    if (prog_) nvrtcDestroyProgram(&prog_);
  }
  NvrtcProgram(const NvrtcProgram &) = delete;
  NvrtcProgram &operator=(const NvrtcProgram &) = delete;

  nvrtcProgram get() const { return prog_; }

  std::string log() const {
    size_t size = 0;
    if (nvrtcGetProgramLogSize(prog_, &size) != NVRTC_SUCCESS || size == 0) return {};
    std::string text(size, '\0');
    if (nvrtcGetProgramLog(prog_, text.data()) != NVRTC_SUCCESS) return {};
    while (!text.empty() && text.back() == '\0') text.pop_back();
    return text;
  }

  void check(nvrtcResult r, const char *call) const {
    if (r != NVRTC_SUCCESS)
      throw CompileError(std::string(call) + " failed: " + nvrtcGetErrorString(r), prog_ ? log() : "");
  }

 private:
  nvrtcProgram prog_ = nullptr;
};

}  // namespace

std::vector<std::string> CompileOptions::nvrtc_options() const {
  // --no-cache: with a driver present NVRTC may answer from the driver's compute cache,
  // which skips ptxas and with it the resource report that pruning reads.
  std::vector<std::string> opts = {"--gpu-architecture=" + arch, "--std=c++17", "--ptxas-options=--verbose",
                                   "--no-cache"};
  opts.insert(opts.end(), extra.begin(), extra.end());
  return opts;
}

std::string CompileOptions::to_string() const {
  std::string out;
  for (const auto &o : nvrtc_options()) out += (out.empty() ? "" : " ") + o;
  return out;
}

CompiledKernel compile_kernel(const KernelSource &source, const CompileOptions &options, const SgemmTile &tile) {
  const auto start = std::chrono::steady_clock::now();
  CompiledKernel out;
  out.tile = tile;
  out.name_expression = kernel_name_expression(tile);

  std::vector<const char *> texts, names;
  for (const auto &[name, text] : source.headers) {
    names.push_back(name.c_str());
    texts.push_back(text.c_str());
  }
  const std::string unit = "#include \"" + source.entry_header + "\"\n";
  NvrtcProgram prog(unit, "sgemm_tune_instance.cu", texts, names);
  prog.check(nvrtcAddNameExpression(prog.get(), out.name_expression.c_str()), "nvrtcAddNameExpression");

  const std::vector<std::string> opts = options.nvrtc_options();
  std::vector<const char *> opt_ptrs;
  for (const auto &o : opts) opt_ptrs.push_back(o.c_str());
  const nvrtcResult result = nvrtcCompileProgram(prog.get(), static_cast<int>(opt_ptrs.size()), opt_ptrs.data());
  // The log is read before the result is judged: on failure it is the explanation.
  out.log = prog.log();
  if (result != NVRTC_SUCCESS)
    throw CompileError("NVRTC could not compile " + out.name_expression + " (" + nvrtcGetErrorString(result) +
                           ") with options: " + options.to_string(),
                       out.log);

  const char *lowered = nullptr;
  prog.check(nvrtcGetLoweredName(prog.get(), out.name_expression.c_str(), &lowered), "nvrtcGetLoweredName");
  out.lowered_name = lowered;

  size_t cubin_size = 0;
  prog.check(nvrtcGetCUBINSize(prog.get(), &cubin_size), "nvrtcGetCUBINSize");
  if (cubin_size == 0)
    throw CompileError("NVRTC produced no cubin for " + out.name_expression +
                           ": the architecture must be a real one (sm_XX), not a virtual one (compute_XX)",
                       out.log);
  out.cubin.resize(cubin_size);
  prog.check(nvrtcGetCUBIN(prog.get(), out.cubin.data()), "nvrtcGetCUBIN");

  auto usage = parse_ptxas_report(out.log, out.lowered_name);
  if (!usage)
    throw CompileError("no ptxas resource report for " + out.name_expression + " in the NVRTC log", out.log);
  out.usage = *usage;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace sgemm_tune
