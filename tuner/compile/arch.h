// The name of a GPU architecture as NVRTC's -arch, the occupancy table and the recorded
// compile options spell it: compute capability 9.0 is "sm_90", 10.0 is "sm_100".
#pragma once

#include <string>

namespace sgemm_tune {

// From the compute capability as the database records it, "9.0".
std::string sm_arch(const std::string &compute_capability);

// From the device's major and minor version.
std::string sm_arch(int major, int minor);

}  // namespace sgemm_tune
