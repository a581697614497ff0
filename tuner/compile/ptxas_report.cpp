#include "tuner/compile/ptxas_report.h"

#include <regex>
#include <sstream>

namespace sgemm_tune {

// The report looks like this, one block per function:
//   ptxas info    : Compiling entry function '_Z...' for 'sm_90'
//   ptxas info    : Function properties for _Z...
//       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 128 registers, used 1 barriers, 4096 bytes smem, 400 bytes cmem[0]
std::optional<ResourceUsage> parse_ptxas_report(const std::string &log, const std::string &lowered_name) {
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex smem(R"((\d+) bytes smem)");

  std::istringstream lines(log);
  std::string line;
  bool in_function = false;
  ResourceUsage usage;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, m, entry)) {
      in_function = m[1] == lowered_name;
      continue;
    }
    if (!in_function) continue;
    if (std::regex_search(line, m, frame)) {
      usage.spill_store_bytes = std::stoi(m[2]);
      usage.spill_load_bytes = std::stoi(m[3]);
    } else if (std::regex_search(line, m, used)) {
      usage.registers = std::stoi(m[1]);
      if (std::regex_search(line, m, smem)) usage.static_smem_bytes = std::stoi(m[1]);
      return usage;  // the register line closes a function's block
    }
  }
  return std::nullopt;
}

}  // namespace sgemm_tune
