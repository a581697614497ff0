#include "tuner/prune/sm_limits.h"

#include "tuner/common/errors.h"

namespace sgemm_tune {
namespace {

SmLimits make(const char *arch, int major, int minor, int threads_per_sm, int blocks_per_sm, int smem_kib,
              int optin_kib) {
  SmLimits l;
  l.arch = arch;
  l.compute_major = major;
  l.compute_minor = minor;
  l.max_threads_per_sm = threads_per_sm;
  l.max_blocks_per_sm = blocks_per_sm;
  l.smem_per_sm = smem_kib * 1024;
  l.smem_per_block_optin = optin_kib * 1024;
  l.smem_reserved_per_block = 1024;  // since Ampere
  return l;
}

const std::vector<SmLimits> &table() {
  // CUDA C++ Programming Guide, "Technical Specifications per Compute Capability".
  static const std::vector<SmLimits> limits = {
      make("sm_80", 8, 0, 2048, 32, 164, 163),
      make("sm_86", 8, 6, 1536, 16, 100, 99),
      make("sm_89", 8, 9, 1536, 24, 100, 99),
      make("sm_90", 9, 0, 2048, 32, 228, 227),
  };
  return limits;
}

}  // namespace

SmLimits sm_limits_for_arch(const std::string &arch) {
  for (const auto &l : table())
    if (l.arch == arch) return l;
  std::string list;
  for (const auto &a : known_archs()) list += (list.empty() ? "" : ", ") + a;
  throw UserError("unknown architecture '" + arch + "' (known: " + list + ")");
}

std::vector<std::string> known_archs() {
  std::vector<std::string> out;
  for (const auto &l : table()) out.push_back(l.arch);
  return out;
}

}  // namespace sgemm_tune
