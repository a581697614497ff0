// Which GPUs of the machine a tuning measures on: `--device N` (one), `--devices all` or
// `--devices 0,2` (a measurement worker on each). The GPUs of one run must be one model:
// their timings go into one ranking, and a run's GPU identity is the model.
#pragma once

#include <string>
#include <vector>

#include "tuner/gpu/device_info.h"

namespace sgemm_tune {

struct DeviceSelection {
  bool all = false;
  std::vector<int> listed;            // when not all: distinct, in the order given
  std::string option = "--device 0";  // as the user spelled it, for messages

  static DeviceSelection one(int device);
  // The device that stands for the run where one is needed without opening every GPU (a
  // dry run's architecture, the environment `--stale` compares with).
  int first() const { return all || listed.empty() ? 0 : listed.front(); }
};

// "all", or device numbers separated by commas ("0,1"). Throws UserError for an empty list
// or item, anything but a number, and a device listed twice.
DeviceSelection parse_device_selection(const std::string &text);

// The device numbers meant, on a machine with `count` GPUs (at least one). Throws
// UserError naming a device that does not exist.
std::vector<int> resolve_devices(const DeviceSelection &selection, int count);

// Throws UserError, naming both, unless every GPU has the first one's name and compute
// capability.
void check_one_model(const std::vector<GpuInfo> &gpus);

// Opens and describes every selected GPU, one model (check_one_model). Throws NoGpuError
// when the machine has none.
std::vector<GpuInfo> open_gpus(const DeviceSelection &selection);

}  // namespace sgemm_tune
