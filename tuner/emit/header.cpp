#include "tuner/emit/header.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include <unistd.h>

#include "tuner/common/errors.h"
#include "tuner/emit/cpp_text.h"
#include "tuner/record/code_check.h"
#include "tuner/record/tile_columns.h"
#include "tuner/version.h"

namespace sgemm_tune {
namespace {

constexpr std::size_t kMaxEntriesPerGpu = 256;  // sgemm_tuned_runtime.cuh's selection buffer

// The machine code the database keeps for an entry, if any: only compared with what the
// tuner compiles, never shipped itself.
std::optional<std::pair<std::string, std::string>> stored_code(Database &db, const BestEntry &e) {
  Statement st = db.prepare("SELECT lowered_name, cubin FROM kernels WHERE fingerprint = :fingerprint AND " +
                            tile_column_match());
  st.bind(":fingerprint", e.fingerprint_hash);
  bind_tile(st, e.tile);
  if (!st.step()) return std::nullopt;
  return std::make_pair(st.column_text("lowered_name"), st.column_blob("cubin"));
}

std::string number(const char *fmt, double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// The code of each entry's two kernels, in entry order.
struct ShippedCode {
  std::vector<RebuiltCode> exact, edges, any;
};

// The arrays of machine code a header holds, one per distinct image: entries whose tiles
// are the same (one tile is often the best at several shapes) share their kernels' arrays
// rather than repeat megabytes of the same bytes.
class CodeArrays {
 public:
  explicit CodeArrays(std::ostringstream &data) : data_(data) {}

  // One kernel's fields of a TunedKernel row: its machine code, written as array `array`
  // (`what` names its tile in a comment) unless the same image was written already, with its
  // symbol; or no code and the launcher `launcher` (a template of sgemm_tuned_runtime.cuh)
  // that compiles the tile from source.
  std::string fields(const std::string &array, const std::string &what, const RebuiltCode &code,
                     const std::string &launcher) {
    if (!code.kernel) return "nullptr, 0, nullptr, &::sgemm_tune_runtime::" + launcher;
    const auto [at, added] = written_.try_emplace(code.kernel->cubin, array);
    if (added) {
      data_ << "// " << what << "\n";
      data_ << "alignas(16) inline const unsigned char " << array << "[] =\n";
      std::string literal = cpp_bytes_literal(code.kernel->cubin, "    ");
      literal.back() = ';';
      data_ << literal << "\n\n";
    }
    // The literal's terminating zero is not part of the image.
    return at->second + ", sizeof " + at->second + " - 1, " + cpp_string_literal(code.kernel->lowered_name) +
           ", nullptr";
  }

 private:
  std::ostringstream &data_;
  std::map<std::string, std::string> written_;  // image -> the array that holds it
};

// The code each entry ships: compiled now, by this tuner, from the template the entry was
// timed with; none where that cannot be done (the source path then compiles the tile in
// the user's build). What the database kept of the timed kernel is compared, so that a
// mismatch is reported; the edge variant is never timed, so the database has none of it.
ShippedCode code_to_ship(Database &db, const std::vector<const BestEntry *> &entries, const EmitOptions &options,
                         const CurrentEnvironment &env, EmittedHeader &out) {
  std::vector<CodeOrigin> origins;
  for (const BestEntry *e : entries)
    origins.push_back({e->fingerprint.template_hash, e->fingerprint.compile_options, e->fingerprint.nvrtc_version,
                       e->compute_capability, e->tile});
  if (!options.kernel) {
    const std::vector<RebuiltCode> none(origins.size(), {std::nullopt, "not compiled"});
    return {none, none, none};
  }
  const CodeRebuilder rebuilder(*options.kernel, env.extra_compile_options);
  ShippedCode code{rebuilder.rebuild(origins), rebuilder.rebuild(origins, KernelVariant::edges),
                   rebuilder.rebuild(origins, KernelVariant::any)};
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto stored = stored_code(db, *entries[i]);
    if (stored && compare_code(code.exact[i], stored->first, stored->second) == CodeCheck::differs)
      out.code_mismatches.push_back(entries[i]->gpu_name + " " + entries[i]->shape.to_string() + " " +
                                    describe_tile(entries[i]->tile));
  }
  return code;
}

}  // namespace

EmittedHeader emit_header(Database &db, const CurrentEnvironment &env, const EmitOptions &options) {
  const std::vector<BestEntry> all = best_entries(db, env);
  // GPUs in name order, each numbered: the tables' identifiers are derived from that
  // number, never from a stored name.
  std::map<std::string, std::vector<const BestEntry *>> by_gpu;
  for (const auto &e : all)
    if (options.gpus.empty() || std::find(options.gpus.begin(), options.gpus.end(), e.gpu_name) != options.gpus.end())
      by_gpu[e.gpu_name + "\n" + e.compute_capability].push_back(&e);
  if (by_gpu.empty())
    throw UserError(options.gpus.empty() ? options.database_label + " holds no verified results: run a tuning first"
                                         : options.database_label + " holds no verified results for the GPU(s) asked for");

  EmittedHeader out;
  std::vector<const BestEntry *> entries;
  for (auto &[key, list] : by_gpu) {
    if (list.size() > kMaxEntriesPerGpu)
      throw UserError(list.front()->gpu_name + " has " + std::to_string(list.size()) +
                      " tuned shapes; a header holds at most " + std::to_string(kMaxEntriesPerGpu) + " per GPU");
    entries.insert(entries.end(), list.begin(), list.end());
  }
  const ShippedCode code = code_to_ship(db, entries, options, env, out);

  std::string latest;
  std::ostringstream summary, data, tables, gpu_table;
  CodeArrays arrays(data);
  std::size_t entry_index = 0, gpu_index = 0;
  bool ships_code = false;  // any machine code at all
  for (auto &[key, list] : by_gpu) {
    const std::string &gpu = list.front()->gpu_name;
    const std::string &cc = list.front()->compute_capability;
    const std::string g = std::to_string(gpu_index++);
    out.gpus.push_back(gpu);
    summary << "// " << cpp_comment_text(gpu) << " (compute capability " << cc << "), " << list.size()
            << " tuned shape(s):\n";
    std::ostringstream rows;
    for (const BestEntry *e : list) {
      const RebuiltCode &c = code.exact[entry_index];
      const RebuiltCode &edges = code.edges[entry_index];
      const RebuiltCode &any = code.any[entry_index];
      const std::string n = std::to_string(entry_index++);
      latest = std::max(latest, e->measured_at);
      ++out.entries;
      summary << "//   " << e->shape.to_string() << ": " << describe_tile(e->tile) << "\n//     "
              << number("%.3f", e->time_ms) << " ms, " << number("%.2f", e->tflops) << " TFLOP/s, "
              << number("%.1f%%", e->percent_of_cublas) << " of cuBLAS, measured " << cpp_comment_text(e->measured_at)
              << " (run " << e->run_id << ", fingerprint " << cpp_comment_text(e->fingerprint_hash)
              << (e->fingerprint.timing_method == "graphs" ? ", timed as CUDA graphs" : "") << "); "
              << (c.kernel ? "ships the machine code of the timed template, compiled by sgemm-tune"
                           : "compiled from source by your compiler")
              << "; edge kernels " << (edges.kernel && any.kernel ? "machine code" : "from source") << "\n";
      if (e->stale()) {
        ++out.stale;
        summary << "//     STALE:";
        for (const auto &ch : e->changes)
          summary << " " << ch.part << " changed (" << cpp_comment_text(ch.recorded) << " -> "
                  << cpp_comment_text(ch.current) << ");";
        summary << "\n";
      }
      // The selection's view of the entry (tuned_shape), written out field by field.
      const sgemm_tune_kernels::TunedShape t = tuned_shape(*e);
      const std::string shape = "{" + std::to_string(t.M) + ", " + std::to_string(t.N) + ", " + std::to_string(t.K) +
                                ", {" + tile_arguments(t.tile) + "}, " + number("%.4f", t.percent_of_cublas) + ", " +
                                number("%.4f", t.tflops) + ", " + std::to_string(t.blocks_per_sm) + ", " +
                                std::to_string(t.rate_M) + ", " + std::to_string(t.rate_N) + ", " +
                                std::to_string(t.rate_K) + ", " + number("%.4f", t.rate_tflops) + ", " +
                                (t.blas_product ? "true" : "false") + ", " + std::to_string(t.blas_ops) + "u}";
      // Names the tile, not the shape: every entry of the tile shares the array.
      const std::string what = cpp_comment_text(gpu) + ", " + describe_tile(e->tile);
      if (c.kernel) ++out.with_code;
      if (edges.kernel && any.kernel) ++out.with_edges_code;
      ships_code = ships_code || c.kernel || edges.kernel || any.kernel;
      // One line per row: every line of the header starts as the generator writes it.
      rows << "    {" << shape << ", "
           << arrays.fields("kCubin" + n, what, c, "launch_fast<" + tile_arguments(e->tile) + ">") << ", "
           << arrays.fields("kCubinEdges" + n, what + ", edge kernel", edges,
                            "launch_edges<" + tile_arguments(e->tile) + ">")
           << ", "
           << arrays.fields("kCubinAny" + n, what + ", kernel of any operands", any,
                            "launch_any<" + tile_arguments(e->tile) + ">")
           << "},\n";
    }
    // The tables are not const, though nothing writes them: with const tables that point at
    // the const machine-code arrays, nvcc's front end (cudafe++ and cicc, CUDA 13.0) took
    // gigabytes, apparently holding the machine code as constants. A program that called
    // the header's run-time directly (tools/example, tools/bench_shapes) took 10 GB and more
    // to compile against a header of twelve entries; with these tables, 0.64-0.67 GB
    // (bench/results/2026-12-05-cpu-header-build-memory). The arrays themselves stay const.
    tables << "// " << cpp_comment_text(gpu) << "\n"
           << "inline ::sgemm_tune_runtime::TunedKernel kKernels" << g << "[] = {\n" << rows.str() << "};\n";
    tables << "inline ::sgemm_tune_runtime::LoadedCode kLoaded" << g << "[" << list.size() << "];\n";
    tables << "inline ::sgemm_tune_runtime::LoadedCode kLoadedEdges" << g << "[" << list.size() << "];\n";
    tables << "inline ::sgemm_tune_runtime::LoadedCode kLoadedAny" << g << "[" << list.size() << "];\n\n";
    const auto dot = cc.find('.');
    gpu_table << "    {" << cpp_string_literal(gpu) << ", " << cc.substr(0, dot) << ", " << cc.substr(dot + 1)
              << ", kKernels" << g << ", kLoaded" << g << ", kLoadedEdges" << g << ", kLoadedAny" << g << ", "
              << list.size() << ", " << sgemm_tune_kernels::kMachineCodeInterface << "},\n";
  }

  // Machine code launched by a run-time that reads its arguments otherwise computes a wrong C
  // without a word: a header that ships any is built only against kernel_templates of the
  // same kMachineCodeInterface.
  // Its arrays are string literals, longer than MSVC (the host compiler nvcc uses on
  // Windows) takes (error C1091, 64 KiB): said there in a sentence rather than by that error.
  std::ostringstream machine_code_check;
  if (ships_code)
    machine_code_check << "#if defined(_MSC_VER) && !defined(__clang__)\n"
                       << "#error \"this header's machine code is written as string literals longer than MSVC takes: "
                          "emit it with sgemm-tune emit --from-source\"\n#endif\n"
                       << "static_assert(::sgemm_tune_kernels::kMachineCodeInterface == "
                       << sgemm_tune_kernels::kMachineCodeInterface
                       << ",\n              \"this header's machine code was compiled for kernel_templates of another "
                          "version: emit it again with the sgemm-tune whose kernel_templates you build with\");\n\n";
  std::ostringstream h;
  h << "// Generated by sgemm-tune " << kTunerVersion << " (sgemm-tune emit) from "
    << cpp_comment_text(options.database_label) << ".\n// Do not edit: emit it again from the database.\n//\n"
    << "// Latest measurement: " << cpp_comment_text(latest) << "\n"
    << "// Kernel template: " << env.template_hash << "\n//\n"
    << summary.str() << "//\n"
    << "// sgemm_tuned() is C = alpha op(A) op(B) + beta C as cblas_sgemm takes it, for any layout, ops,\n"
    << "// leading dimensions and M, N, K >= 0; which configuration serves which product is the rule in\n"
    << "// sgemm_tuned_select.h. Build with nvcc, C++17, and the kernel_templates directory of\n"
    << "// sgemm-tune on the include path (CMake: sgemm_tune::kernels).\n"
    << "#pragma once\n\n#include <cuda_runtime.h>\n\n#include \"sgemm_tuned_runtime.cuh\"\n\n"
    << "#if !defined(SGEMM_TUNE_TUNED_SHAPE_FIELDS) || SGEMM_TUNE_TUNED_SHAPE_FIELDS < "
    << SGEMM_TUNE_TUNED_SHAPE_FIELDS << "\n"
    << "#error \"this header's tables were written for newer kernel_templates: build with the kernel_templates of "
       "the sgemm-tune that emitted it\"\n#endif\n\n"
    << machine_code_check.str()
    << "// The tables (kKernels, kGpus) are not const, though nothing writes them: as const tables of\n"
    << "// the const machine-code arrays, nvcc's front end took gigabytes to compile a program using them.\n"
    << "namespace sgemm_tuned_data {\n\n"
    << data.str() << tables.str() << "inline ::sgemm_tune_runtime::GpuTable kGpus[] = {\n"
    << gpu_table.str() << "};\n"
    << "inline constexpr int kGpuCount = static_cast<int>(sizeof kGpus / sizeof kGpus[0]);\n\n"
    << "}  // namespace sgemm_tuned_data\n\n"
    << "// C = alpha op(A) op(B) + beta C, as cblas_sgemm: C is M x N, op(A) M x K, op(B) K x N, each stored\n"
    << "// in `layout` with its leading dimension. Bad arguments return cudaErrorInvalidValue before the\n"
    << "// GPU is touched; M or N = 0 does nothing; beta = 0 never reads C.\n"
    << "inline cudaError_t sgemm_tuned(sgemm_tune::Layout layout, sgemm_tune::Op op_a, sgemm_tune::Op op_b, int M,\n"
    << "                               int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,\n"
    << "                               float beta, float *C, int ldc, cudaStream_t stream = 0) {\n"
    << "  return ::sgemm_tune_runtime::sgemm(\n"
    << "      sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount,\n"
    << "      ::sgemm_tune_kernels::to_row_major(layout, op_a, op_b, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc), stream);\n"
    << "}\n\n"
    << "// C = alpha A B + beta C; A is M x K, B is K x N, C is M x N, all row-major and dense.\n"
    << "inline cudaError_t sgemm_tuned(int M, int N, int K, float alpha, const float *A, const float *B, float beta,\n"
    << "                               float *C, cudaStream_t stream = 0) {\n"
    << "  return ::sgemm_tune_runtime::sgemm(sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount,\n"
    << "                                     ::sgemm_tune_kernels::dense_row_major(M, N, K, alpha, A, B, beta, C), stream);\n"
    << "}\n";
  out.text = h.str();
  return out;
}

namespace {

// The one wording of a file that cannot be written, for check_writable and
// write_file_atomically alike.
UserError cannot_write(const std::string &path, const std::string &why) {
  return UserError("cannot write " + path + ": " + why);
}

}  // namespace

void check_writable(const std::string &path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // A folder at the path, not a link to one: write_file_atomically's rename would replace a link.
  if (fs::symlink_status(path, ec).type() == fs::file_type::directory)
    throw cannot_write(path, std::strerror(EISDIR));
  // A file of a name of its own in the path's folder, created exclusively (no file of the
  // user's is touched, no link followed) and removed again.
  const fs::path folder = fs::path(path).parent_path();
  std::string probe = ((folder.empty() ? fs::path(".") : folder) / ".sgemm-tune-write-check-XXXXXX").string();
  const int fd = mkstemp(probe.data());
  if (fd < 0) throw cannot_write(path, std::strerror(errno));
  close(fd);
  std::remove(probe.c_str());
}

void write_file_atomically(const std::string &path, const std::string &text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw cannot_write(path, std::strerror(errno));
    f << text;
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      throw cannot_write(path, std::strerror(errno));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    throw cannot_write(path, why);
  }
}

}  // namespace sgemm_tune
