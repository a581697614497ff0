// The GPU in hand: identity for provenance, limits for the occupancy model.
#pragma once

#include <cstddef>
#include <string>

#include "tuner/compile/arch.h"
#include "tuner/prune/sm_limits.h"

namespace sgemm_tune {

struct GpuInfo {
  int device = 0;
  std::string name;
  int compute_major = 0, compute_minor = 0;
  int sm_count = 0;
  int clock_mhz = 0;
  std::string driver_version;   // "13.0 (580.159.04)": CUDA version the driver supports, and its release
  std::string runtime_version;  // CUDA runtime linked in, "13.0"
  std::size_t l2_bytes = 0;
  // "0000:3b:00.0": which card this is, whatever number CUDA_VISIBLE_DEVICES gave it.
  std::string pci_bus_id;
  std::string arch() const { return sm_arch(compute_major, compute_minor); }
  std::string compute_capability() const { return std::to_string(compute_major) + "." + std::to_string(compute_minor); }
};

// Number of usable GPUs; 0 when there is no driver or no device.
int gpu_count(std::string *why_none = nullptr);

// Selects and describes `device`. Throws NoGpuError saying why when there is none.
GpuInfo open_gpu(int device);

// The occupancy limits of the device, read from its properties.
SmLimits sm_limits_from_device(int device);

}  // namespace sgemm_tune
