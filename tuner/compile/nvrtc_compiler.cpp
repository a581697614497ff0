#include "tuner/compile/nvrtc_compiler.h"

#include <algorithm>
#include <chrono>

#include <nvrtc.h>

#include "sgemm_launch.h"

namespace sgemm_tune {
namespace {

class NvrtcProgram {
 public:
  // A program of the kernel template: one unit that includes its entry header.
  explicit NvrtcProgram(const KernelSource &source) {
    std::vector<const char *> texts, names;
    for (const auto &[name, text] : source.headers) {
      names.push_back(name.c_str());
      texts.push_back(text.c_str());
    }
    const std::string unit = "#include \"" + source.entry_header + "\"\n";
    check(nvrtcCreateProgram(&prog_, unit.c_str(), "sgemm_tune_instance.cu", static_cast<int>(texts.size()),
                             texts.data(), names.data()),
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

  // Compiles the template's instances named by `names`; returns the log, read before the
  // result is judged because on failure it is the explanation.
  std::string compile(const CompileOptions &options, const std::vector<std::string> &names) {
    std::string listed;
    for (const auto &name : names) {
      check(nvrtcAddNameExpression(prog_, name.c_str()), "nvrtcAddNameExpression");
      listed += (listed.empty() ? "" : " and ") + name;
    }
    const std::vector<std::string> opts = options.nvrtc_options();
    std::vector<const char *> opt_ptrs;
    for (const auto &o : opts) opt_ptrs.push_back(o.c_str());
    const nvrtcResult result = nvrtcCompileProgram(prog_, static_cast<int>(opt_ptrs.size()), opt_ptrs.data());
    std::string text = log();
    if (result != NVRTC_SUCCESS)
      throw CompileError("NVRTC could not compile " + listed + " (" + nvrtcGetErrorString(result) +
                             ") with options: " + options.to_string(),
                         text);
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
  // --register-usage-level=10 (ptxas's default is 5): on the H200 the 20 fastest tiles of
  // every workload and suite shape ran 1.5-4% faster, and headers emitted from one tuning
  // ran the random shapes 1.4% and 1000^3, 3000^3 and 4096x4096x4100 2-6% faster, the
  // suite the same (bench/results/2026-12-03-h200-register-usage-level). The fastest tiles
  // already hold about 250 registers and move little. An option in `extra` comes later
  // and wins: ptxas takes the last of a repeated option (tested for this one). Given only
  // to the ptxas of CUDA 13 or newer, where it was measured; an older one may not know it.
  std::vector<std::string> opts = {"--gpu-architecture=" + arch, "--std=c++17", "--ptxas-options=--verbose"};
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) == NVRTC_SUCCESS && major >= 13)
    opts.push_back("--ptxas-options=--register-usage-level=10");
  opts.push_back("--no-cache");
  opts.insert(opts.end(), extra.begin(), extra.end());
  return opts;
}

std::string CompileOptions::to_string() const {
  std::string out;
  for (const auto &o : nvrtc_options()) out += (out.empty() ? "" : " ") + o;
  return out;
}

std::string plain_body_symbol(const std::string &body_symbol, int body) {
  if (body < 0 || body >= sgemm_tune_kernels::kEdgeBodies) return {};
  // Itanium mangling writes each name as its length and its letters, the template
  // arguments' "I" after it.
  for (const std::string plain : {"sgemm_double_buffered_edges", "sgemm_double_buffered_any"}) {
    const std::string named = plain + sgemm_tune_kernels::edge_body_kernel_suffix(body);
    const std::string from = std::to_string(named.size()) + named + "I";
    const std::size_t at = body_symbol.find(from);
    if (at == std::string::npos) continue;
    std::string out =
        body_symbol.substr(0, at) + std::to_string(plain.size()) + plain + "I" + body_symbol.substr(at + from.size());
    // The run-time names each body from the plain one with edge_body_symbol: a name it would
    // not find again is no answer (a kernel added to one of the two functions only).
    char again[1024];
    if (!sgemm_tune_kernels::edge_body_symbol(out.c_str(), body, again, sizeof again) || body_symbol != again)
      return {};
    return out;
  }
  return {};
}

CompiledKernel compile_kernel(const KernelSource &source, const CompileOptions &options, const SgemmTile &tile,
                              KernelVariant variant, EdgeBodies bodies) {
  const auto start = std::chrono::steady_clock::now();
  CompiledKernel out;
  out.tile = tile;
  out.name_expression = name_expression(tile, variant);
  // The edge kernel and the kernel of any operands are a kernel per body, the asked-for ones
  // in one cubin (the run-time picks one per launch); name_expression names the plain body's.
  std::vector<std::string> names;
  std::vector<int> name_body;  // each name's body (kEdgeBodyPlain for the fast kernel)
  if (variant == KernelVariant::exact) {
    names.push_back(out.name_expression);
    name_body.push_back(sgemm_tune_kernels::kEdgeBodyPlain);
  } else {
    if (!is_edge_body_set(bodies))
      throw std::invalid_argument("compile_kernel: bodies " + std::to_string(bodies) + " of " + out.name_expression +
                                  " are not a non-empty set of its bodies");
    for (int body = 0; body < sgemm_tune_kernels::kEdgeBodies; ++body)
      if (bodies & edge_body_bit(body)) {
        names.push_back(edge_body_name_expression(tile, variant, body));
        name_body.push_back(body);
      }
  }
  NvrtcProgram prog(source);
  out.log = prog.compile(options, names);

  const char *lowered = nullptr;
  prog.check(nvrtcGetLoweredName(prog.get(), names.front().c_str(), &lowered), "nvrtcGetLoweredName");
  out.lowered_name = variant == KernelVariant::exact ? lowered : plain_body_symbol(lowered, name_body.front());
  if (out.lowered_name.empty())
    throw CompileError("cannot derive the plain body's symbol from " + std::string(lowered), out.log);

  size_t cubin_size = 0;
  prog.check(nvrtcGetCUBINSize(prog.get(), &cubin_size), "nvrtcGetCUBINSize");
  if (cubin_size == 0)
    throw CompileError("NVRTC produced no cubin for " + out.name_expression +
                           ": the architecture must be a real one (sm_XX), not a virtual one (compute_XX)",
                       out.log);
  out.cubin.resize(cubin_size);
  prog.check(nvrtcGetCUBIN(prog.get(), out.cubin.data()), "nvrtcGetCUBIN");

  // An edge kernel's (or kernel of any operands') usage is the most of its compiled bodies':
  // pruning and the residency model read the fast kernel's. Each body's is kept too, for the
  // result row of a BLAS shape that the body runs (judge_compiled).
  for (std::size_t i = 0; i < names.size(); ++i) {
    prog.check(nvrtcGetLoweredName(prog.get(), names[i].c_str(), &lowered), "nvrtcGetLoweredName");
    const auto usage = parse_ptxas_report(out.log, lowered);
    if (!usage) throw CompileError("no ptxas resource report for " + names[i] + " in the NVRTC log", out.log);
    out.body_usage[name_body[i]] = *usage;
    out.usage.registers = std::max(out.usage.registers, usage->registers);
    out.usage.spill_store_bytes = std::max(out.usage.spill_store_bytes, usage->spill_store_bytes);
    out.usage.spill_load_bytes = std::max(out.usage.spill_load_bytes, usage->spill_load_bytes);
    out.usage.static_smem_bytes = std::max(out.usage.static_smem_bytes, usage->static_smem_bytes);
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

void compile_companions(const KernelSource &source, const CompileOptions &options, CompiledKernel &kernel,
                        const std::vector<CompanionRequest> &requests) {
  for (const CompanionRequest &r : requests) {
    try {
      CompiledKernel k = compile_kernel(source, options, kernel.tile, r.variant, r.bodies);
      kernel.companions.push_back(
          CompanionKernel{r.variant, std::move(k.lowered_name), std::move(k.cubin), r.bodies, k.body_usage});
    } catch (const CompileError &e) {
      kernel.companion_failures.push_back(CompanionFailure{r.variant, e.what(), e.log()});
    } catch (const std::exception &e) {
      kernel.companion_failures.push_back(CompanionFailure{r.variant, e.what(), {}});
    }
  }
}

void compile_every_kernel(const KernelSource &source, const CompileOptions &options, const SgemmTile &tile) {
  NvrtcProgram prog(source);
  std::vector<std::string> names{kernel_name_expression(tile)};
  for (const KernelVariant variant : {KernelVariant::edges, KernelVariant::any})
    for (int body = 0; body < sgemm_tune_kernels::kEdgeBodies; ++body)
      names.push_back(edge_body_name_expression(tile, variant, body));
  prog.compile(options, names);
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace sgemm_tune
