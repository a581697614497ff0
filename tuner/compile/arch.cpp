#include "tuner/compile/arch.h"

namespace sgemm_tune {

std::string sm_arch(const std::string &compute_capability) {
  std::string digits;
  for (char c : compute_capability)
    if (c != '.') digits += c;
  return "sm_" + digits;
}

std::string sm_arch(int major, int minor) { return sm_arch(std::to_string(major) + "." + std::to_string(minor)); }

}  // namespace sgemm_tune
