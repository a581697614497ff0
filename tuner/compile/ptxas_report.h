// Resource usage of a compiled kernel, read from ptxas's verbose report, so that the
// tuner can prune on registers, spills and shared memory with no GPU present.
#pragma once

#include <optional>
#include <string>

namespace sgemm_tune {

struct ResourceUsage {
  int registers = 0;
  int spill_store_bytes = 0;
  int spill_load_bytes = 0;
  int static_smem_bytes = 0;
  bool spills() const { return spill_store_bytes > 0 || spill_load_bytes > 0; }
};

// Parses the report of the function whose mangled name is `lowered_name` (the report of
// a program may list several). nullopt when the report has no register line for it.
std::optional<ResourceUsage> parse_ptxas_report(const std::string &log, const std::string &lowered_name);

}  // namespace sgemm_tune
