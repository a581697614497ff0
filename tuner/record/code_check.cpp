#include "tuner/record/code_check.h"

#include <algorithm>
#include <map>
#include <thread>
#include <tuple>

#include "tuner/compile/arch.h"
#include "tuner/pipeline/compile_pool.h"

namespace sgemm_tune {

CodeRebuilder::CodeRebuilder(KernelSource kernel, std::vector<std::string> extra_compile_options)
    : kernel_(std::move(kernel)), extra_(std::move(extra_compile_options)), nvrtc_version_(nvrtc_version()) {}

std::optional<std::string> CodeRebuilder::why_not_rebuildable(const CodeOrigin &origin, CompileOptions &options) const {
  if (origin.template_hash != kernel_.hash)
    return "compiled from another kernel template (" + origin.template_hash + ", this one is " + kernel_.hash + ")";
  if (origin.nvrtc_version != nvrtc_version_)
    return "compiled by NVRTC " + origin.nvrtc_version + " (this one is " + nvrtc_version_ + ")";
  options.arch = sm_arch(origin.compute_capability);
  options.extra = extra_;
  // Options are compared, never taken from the record: an option read from a file could
  // change what the template compiles to.
  if (origin.compile_options != options.to_string())
    return "compiled with other options (" + origin.compile_options + ")";
  return std::nullopt;
}

std::vector<RebuiltCode> CodeRebuilder::rebuild(const std::vector<CodeOrigin> &origins,
                                                KernelVariant variant) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<RebuiltCode> out(origins.size());
  // Tiles not compiled yet, grouped by architecture, each once.
  std::map<std::string, std::vector<SgemmTile>> to_compile;
  std::vector<std::string> arch_of_request(origins.size());
  for (std::size_t i = 0; i < origins.size(); ++i) {
    CompileOptions options;
    if (auto why = why_not_rebuildable(origins[i], options)) {
      out[i].why_not = *why;
      continue;
    }
    arch_of_request[i] = options.arch;
    auto &tiles = to_compile[options.arch];
    if (!compiled_.count({options.arch, origins[i].tile, variant}) &&
        std::find(tiles.begin(), tiles.end(), origins[i].tile) == tiles.end())
      tiles.push_back(origins[i].tile);
  }
  const int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (auto &[arch, tiles] : to_compile) {
    if (tiles.empty()) continue;
    CompileOptions options;
    options.arch = arch;
    options.extra = extra_;
    CompilePool pool(kernel_, options, tiles, jobs, variant);
    while (auto outcome = pool.next()) {
      compiled_[{arch, outcome->tile, variant}] = std::move(outcome->kernel);
      errors_[{arch, outcome->tile, variant}] = outcome->error;
    }
  }
  for (std::size_t i = 0; i < origins.size(); ++i) {
    if (arch_of_request[i].empty()) continue;
    const Key key{arch_of_request[i], origins[i].tile, variant};
    out[i].kernel = compiled_.at(key);
    if (!out[i].kernel) out[i].why_not = "does not compile here: " + errors_.at(key);
  }
  return out;
}

CodeCheck compare_code(const RebuiltCode &rebuilt, const std::string &lowered_name, const std::string &cubin) {
  if (!rebuilt.kernel) return CodeCheck::not_rebuilt;
  return rebuilt.kernel->lowered_name == lowered_name && rebuilt.kernel->cubin == cubin ? CodeCheck::same
                                                                                         : CodeCheck::differs;
}

}  // namespace sgemm_tune
