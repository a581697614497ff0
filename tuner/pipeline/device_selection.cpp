#include "tuner/pipeline/device_selection.h"

#include <algorithm>
#include <cctype>

#include "tuner/common/errors.h"
#include "tuner/common/text.h"
#include "tuner/gpu/cuda_check.h"

namespace sgemm_tune {
namespace {

// More GPUs than any one host holds: a longer number is a typo.
constexpr int kMaxDevice = 1023;

std::string trimmed(const std::string &text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// Decimal digits only, at most kMaxDevice.
bool read_device(const std::string &text, int &out) {
  if (text.empty() || text.size() > 4) return false;
  out = 0;
  for (const char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    out = out * 10 + (c - '0');
  }
  return out <= kMaxDevice;
}

}  // namespace

DeviceSelection DeviceSelection::one(int device) {
  DeviceSelection s;
  s.listed = {device};
  s.option = "--device " + std::to_string(device);
  return s;
}

DeviceSelection parse_device_selection(const std::string &text) {
  DeviceSelection s;
  s.option = "--devices " + terminal_safe(text);
  const std::string usage = ": expected all, or device numbers separated by commas (e.g. 0,1)";
  if (trimmed(text) == "all") {
    s.all = true;
    return s;
  }
  if (trimmed(text).empty()) throw UserError(s.option + ": no device given" + usage);
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = text.find(',', begin);
    const std::string item = trimmed(text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin));
    int device = 0;
    if (item.empty()) throw UserError(s.option + ": an empty item" + usage);
    if (item == "all") throw UserError(s.option + ": all stands alone, not in a list");
    if (!read_device(item, device))
      throw UserError(s.option + ": \"" + terminal_safe(item) + "\" is not a device number" + usage);
    if (std::find(s.listed.begin(), s.listed.end(), device) != s.listed.end())
      throw UserError(s.option + ": device " + std::to_string(device) + " is listed twice");
    s.listed.push_back(device);
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  return s;
}

std::vector<int> resolve_devices(const DeviceSelection &selection, int count) {
  std::vector<int> out;
  if (selection.all) {
    for (int d = 0; d < count; ++d) out.push_back(d);
    return out;
  }
  if (selection.listed.empty()) throw UserError(selection.option + ": no device given");
  for (const int d : selection.listed)
    if (d < 0 || d >= count)
      throw UserError(selection.option + ": GPU " + std::to_string(d) + " does not exist: this machine has " +
                      std::to_string(count) + " GPU(s), numbered from 0");
  return selection.listed;
}

void check_one_model(const std::vector<GpuInfo> &gpus) {
  for (const GpuInfo &g : gpus) {
    const GpuInfo &first = gpus.front();
    if (g.name == first.name && g.compute_capability() == first.compute_capability()) continue;
    throw UserError("GPU " + std::to_string(first.device) + " is " + terminal_safe(first.name) + " (compute " +
                    first.compute_capability() + ") but GPU " + std::to_string(g.device) + " is " +
                    terminal_safe(g.name) + " (compute " + g.compute_capability() +
                    "): the timings of different models do not compare; tune each model in a run of its own");
  }
}

std::vector<GpuInfo> open_gpus(const DeviceSelection &selection) {
  std::string why;
  const int count = gpu_count(&why);
  if (count == 0) throw NoGpuError("no usable GPU: " + why + " (use --dry-run to stop before timing)");
  std::vector<GpuInfo> gpus;
  for (const int d : resolve_devices(selection, count)) gpus.push_back(open_gpu(d));
  check_one_model(gpus);
  // open_gpu made each current in turn: the first stands for the run in this thread.
  SGEMM_CUDA_CHECK(cudaSetDevice(gpus.front().device));
  return gpus;
}

}  // namespace sgemm_tune
