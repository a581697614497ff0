#include "tuner/compile/kernel_source.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "tuner/common/embedded_files.h"
#include "tuner/common/errors.h"
#include "tuner/common/hash.h"

namespace sgemm_tune {
namespace {

constexpr const char *kEntryHeader = "sgemm_double_buffered.cuh";
constexpr const char *kTemplateFiles[] = {"sgemm_double_buffered.cuh", "sgemm_tile_rules.h"};

KernelSource finish(KernelSource source) {
  std::sort(source.headers.begin(), source.headers.end());
  std::uint64_t h = fnv1a64("sgemm-tune kernel template");
  for (const auto &[name, text] : source.headers) {
    h = fnv1a64(name, h);
    h = fnv1a64(std::string_view("\0", 1), h);
    h = fnv1a64(text, h);
    h = fnv1a64(std::string_view("\0", 1), h);
  }
  source.hash = to_hex(h);
  source.entry_header = kEntryHeader;
  return source;
}

}  // namespace

KernelSource KernelSource::embedded() {
  KernelSource source;
  source.origin = "embedded";
  for (const auto &file : kernel_files::embedded_files()) source.headers.emplace_back(file.name, file.content);
  return finish(std::move(source));
}

KernelSource KernelSource::from_directory(const std::string &directory) {
  KernelSource source;
  source.origin = directory;
  for (const char *name : kTemplateFiles) {
    const std::string path = directory + "/" + name;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UserError("kernel template: cannot open " + path);
    std::ostringstream text;
    text << in.rdbuf();
    source.headers.emplace_back(name, text.str());
  }
  // The tuner computes shared memory, threads and validity with the rules it was built
  // with; a kernel compiled with other rules would be launched with the wrong sizes.
  for (const auto &file : kernel_files::embedded_files()) {
    if (std::string(file.name) != "sgemm_tile_rules.h") continue;
    for (const auto &[name, text] : source.headers)
      if (name == file.name && text != file.content)
        throw UserError("kernel template: " + directory + "/" + name +
                        " differs from the tile rules built into sgemm-tune; the tuner sizes launches with its own "
                        "copy, so changing the rules needs a rebuild");
  }
  return finish(std::move(source));
}

std::string kernel_name_expression(const SgemmTile &tile) {
  return "sgemm_tune_kernels::sgemm_double_buffered<" + tile_arguments(tile) + ">";
}

std::string edges_name_expression(const SgemmTile &tile) {
  return edge_body_name_expression(tile, KernelVariant::edges, sgemm_tune_kernels::kEdgeBodyPlain);
}

std::string edge_body_name_expression(const SgemmTile &tile, KernelVariant variant, int body) {
  return std::string(variant == KernelVariant::any ? "sgemm_tune_kernels::sgemm_double_buffered_any"
                                                   : "sgemm_tune_kernels::sgemm_double_buffered_edges") +
         sgemm_tune_kernels::edge_body_kernel_suffix(body) + "<" + tile_arguments(tile) + ">";
}

std::string any_name_expression(const SgemmTile &tile) {
  return edge_body_name_expression(tile, KernelVariant::any, sgemm_tune_kernels::kEdgeBodyPlain);
}

std::string name_expression(const SgemmTile &tile, KernelVariant variant) {
  switch (variant) {
    case KernelVariant::edges: return edges_name_expression(tile);
    case KernelVariant::any: return any_name_expression(tile);
    case KernelVariant::exact: break;
  }
  return kernel_name_expression(tile);
}

}  // namespace sgemm_tune
