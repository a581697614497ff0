#include "tuner/emit/header.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "tuner/common/errors.h"
#include "tuner/compile/arch.h"
#include "tuner/compile/nvrtc_compiler.h"
#include "tuner/record/tile_columns.h"
#include "tuner/version.h"

namespace sgemm_tune {
namespace {

constexpr std::size_t kMaxEntriesPerGpu = 256;  // sgemm_tuned_runtime.cuh's selection buffer

struct Code {
  std::string symbol;
  std::string cubin;
};

std::optional<Code> timed_code(Database &db, const BestEntry &e) {
  Statement st = db.prepare("SELECT lowered_name, cubin FROM kernels WHERE fingerprint = ?1 AND " +
                            tile_column_match(2));
  st.bind(1, e.fingerprint_hash);
  bind_tile(st, 2, e.tile);
  if (!st.step()) return std::nullopt;
  return Code{st.column_text(0), st.column_blob(1)};
}

std::string identifier(const std::string &text) {
  std::string out;
  for (char c : text) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

std::string c_string(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", v);
  return buf;
}

std::string number(const char *fmt, double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

void write_bytes(std::ostringstream &out, const std::string &bytes) {
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i % 16 == 0) out << "\n   ";
    char buf[8];
    std::snprintf(buf, sizeof buf, " 0x%02x,", static_cast<unsigned char>(bytes[i]));
    out << buf;
  }
  out << "\n";
}

}  // namespace

EmittedHeader emit_header(Database &db, const CurrentEnvironment &env, const EmitOptions &options) {
  std::vector<BestEntry> all = best_entries(db, env);
  std::map<std::string, std::vector<BestEntry>> by_gpu;
  for (auto &e : all)
    if (options.gpus.empty() || std::find(options.gpus.begin(), options.gpus.end(), e.gpu_name) != options.gpus.end())
      by_gpu[e.gpu_name + "\n" + e.compute_capability].push_back(std::move(e));
  if (by_gpu.empty())
    throw UserError(options.gpus.empty() ? options.database_label + " holds no verified results: run a tuning first"
                                         : options.database_label + " holds no verified results for the GPU(s) asked for");

  EmittedHeader out;
  std::string latest;
  std::ostringstream summary, data, tables;
  int code_index = 0;
  for (auto &[key, entries] : by_gpu) {
    const std::string gpu = entries.front().gpu_name;
    const std::string cc = entries.front().compute_capability;
    if (entries.size() > kMaxEntriesPerGpu)
      throw UserError(gpu + " has " + std::to_string(entries.size()) + " tuned shapes; a header holds at most " +
                      std::to_string(kMaxEntriesPerGpu) + " per GPU");
    out.gpus.push_back(gpu);
    summary << "// " << gpu << " (compute capability " << cc << "), " << entries.size() << " tuned shape(s):\n";
    const std::string id = identifier(gpu + "_" + cc);
    std::ostringstream list;
    for (const BestEntry &e : entries) {
      latest = std::max(latest, e.measured_at);
      ++out.entries;
      std::optional<Code> code = timed_code(db, e);
      if (!code && options.kernel && !e.stale() && options.kernel->hash == e.fingerprint.template_hash) {
        CompileOptions compile;
        compile.arch = sm_arch(e.compute_capability);
        compile.extra = env.extra_compile_options;
        if (compile.to_string() == e.fingerprint.compile_options) {
          const CompiledKernel k = compile_kernel(*options.kernel, compile, e.tile);
          code = Code{k.lowered_name, k.cubin};
        }
      }
      summary << "//   " << e.shape.to_string() << ": " << describe_tile(e.tile) << "\n//     "
              << number("%.3f", e.time_ms) << " ms, " << number("%.2f", e.tflops) << " TFLOP/s, "
              << percent(e.percent_of_cublas) << " of cuBLAS, measured " << e.measured_at << " (run " << e.run_id
              << ", fingerprint " << e.fingerprint_hash << "); "
              << (code ? "ships the machine code that was timed" : "compiled from source by your compiler") << "\n";
      if (e.stale()) {
        ++out.stale;
        summary << "//     STALE:";
        for (const auto &c : e.changes) summary << " " << c.part << " changed (" << c.recorded << " -> " << c.current << ");";
        summary << "\n";
      }
      const std::string shape = "{" + std::to_string(e.shape.M) + ", " + std::to_string(e.shape.N) + ", " +
                                std::to_string(e.shape.K) + ", {" + tile_arguments(e.tile) + "}, " +
                                number("%.4f", e.percent_of_cublas) + "}";
      if (code) {
        ++out.with_code;
        const std::string name = "kCode" + std::to_string(code_index++);
        data << "// " << gpu << ", " << e.shape.to_string() << ", " << describe_tile(e.tile) << "\n";
        data << "alignas(16) inline const unsigned char " << name << "[] = {";
        write_bytes(data, code->cubin);
        data << "};\n\n";
        list << "    {" << shape << ", " << name << ", sizeof " << name << ", " << c_string(code->symbol)
             << ", nullptr},\n";
      } else {
        list << "    {" << shape << ", nullptr, 0, nullptr, &::sgemm_tune_runtime::launch_fast<" << tile_arguments(e.tile)
             << ">},\n";
      }
    }
    tables << "inline const ::sgemm_tune_runtime::TunedKernel kKernels_" << id << "[] = {\n" << list.str() << "};\n";
    tables << "inline ::sgemm_tune_runtime::LoadedCode kCode_" << id << "[" << entries.size() << "];\n\n";
  }

  std::ostringstream h;
  h << "// Generated by sgemm-tune " << kTunerVersion << " (sgemm-tune emit) from " << options.database_label
    << ".\n// Do not edit: emit it again from the database.\n//\n"
    << "// Latest measurement: " << latest << "\n"
    << "// Kernel template: " << env.template_hash << "\n//\n"
    << summary.str() << "//\n"
    << "// sgemm_tuned() is row-major C = alpha A B + beta C for any M, N, K >= 0; which configuration\n"
    << "// serves which shape is the rule in sgemm_tuned_select.h. Build with nvcc, C++17, and the\n"
    << "// kernel_templates directory of sgemm-tune on the include path (CMake: sgemm_tune::kernels).\n"
    << "#pragma once\n\n#include <cuda_runtime.h>\n\n#include \"sgemm_tuned_runtime.cuh\"\n\n"
    << "namespace sgemm_tuned_data {\n\n"
    << data.str() << tables.str() << "inline const ::sgemm_tune_runtime::GpuTable kGpus[] = {\n";
  for (auto &[key, entries] : by_gpu) {
    const std::string gpu = entries.front().gpu_name;
    const std::string cc = entries.front().compute_capability;
    const std::string id = identifier(gpu + "_" + cc);
    const auto dot = cc.find('.');
    h << "    {" << c_string(gpu) << ", " << cc.substr(0, dot) << ", " << (dot == std::string::npos ? "0" : cc.substr(dot + 1))
      << ", kKernels_" << id << ", kCode_" << id << ", " << entries.size() << "},\n";
  }
  h << "};\n\n}  // namespace sgemm_tuned_data\n\n"
    << "// C = alpha A B + beta C; A is M x K, B is K x N, C is M x N, all row-major and dense.\n"
    << "inline cudaError_t sgemm_tuned(int M, int N, int K, float alpha, const float *A, const float *B, float beta,\n"
    << "                               float *C, cudaStream_t stream = 0) {\n"
    << "  return ::sgemm_tune_runtime::sgemm(sgemm_tuned_data::kGpus, "
    << "static_cast<int>(sizeof sgemm_tuned_data::kGpus / sizeof sgemm_tuned_data::kGpus[0]),\n"
    << "                                     M, N, K, alpha, A, B, beta, C, stream);\n}\n";
  out.text = h.str();
  return out;
}

void write_file_atomically(const std::string &path, const std::string &text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw UserError("cannot write " + path + ": " + std::strerror(errno));
    f << text;
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      throw UserError("cannot write " + path + ": " + std::strerror(errno));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    throw UserError("cannot write " + path + ": " + why);
  }
}

}  // namespace sgemm_tune
