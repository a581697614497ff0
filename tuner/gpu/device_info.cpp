#include "tuner/gpu/device_info.h"

#include <cstdio>
#include <fstream>
#include <regex>

#include "tuner/common/errors.h"
#include "tuner/gpu/cuda_check.h"

namespace sgemm_tune {
namespace {
std::string cuda_version_string(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

// The kernel module's release ("580.159.04"), which the runtime API does not expose; a
// driver update changes generated code paths even when the CUDA version stays the same.
std::string driver_release() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (!std::getline(in, line)) return {};
  static const std::regex release(R"((\d+\.\d+(\.\d+)?)\s)");
  std::smatch m;
  const std::string::size_type at = line.find("Kernel Module");
  if (at == std::string::npos) return {};
  const std::string rest = line.substr(at) + " ";
  return std::regex_search(rest, m, release) ? m[1].str() : std::string();
}
}  // namespace

int gpu_count(std::string *why_none) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    // No driver, or a driver too old for this runtime: both mean "no usable GPU".
    if (why_none) *why_none = cudaGetErrorString(err);
    cudaGetLastError();
    return 0;
  }
  if (count == 0 && why_none) *why_none = "no CUDA device found";
  return count;
}

GpuInfo open_gpu(int device) {
  std::string why;
  const int count = gpu_count(&why);
  if (count == 0) throw NoGpuError("no usable GPU: " + why + " (use --dry-run to stop before timing)");
  if (device < 0 || device >= count)
    throw UserError("--device " + std::to_string(device) + " does not exist: this machine has " +
                    std::to_string(count) + " GPU(s), numbered from 0");
  SGEMM_CUDA_CHECK(cudaSetDevice(device));
  cudaDeviceProp prop{};
  SGEMM_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  GpuInfo info;
  info.device = device;
  info.name = prop.name;
  info.compute_major = prop.major;
  info.compute_minor = prop.minor;
  info.sm_count = prop.multiProcessorCount;
  int clock_khz = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device) == cudaSuccess) info.clock_mhz = clock_khz / 1000;
  info.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  char bus_id[32];
  std::snprintf(bus_id, sizeof bus_id, "%04x:%02x:%02x.0", static_cast<unsigned>(prop.pciDomainID),
                static_cast<unsigned>(prop.pciBusID), static_cast<unsigned>(prop.pciDeviceID));
  info.pci_bus_id = bus_id;
  int v = 0;
  SGEMM_CUDA_CHECK(cudaDriverGetVersion(&v));
  info.driver_version = cuda_version_string(v);
  if (const std::string release = driver_release(); !release.empty()) info.driver_version += " (" + release + ")";
  SGEMM_CUDA_CHECK(cudaRuntimeGetVersion(&v));
  info.runtime_version = cuda_version_string(v);
  return info;
}

SmLimits sm_limits_from_device(int device) {
  cudaDeviceProp prop{};
  SGEMM_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  SmLimits l;
  l.arch = sm_arch(prop.major, prop.minor);
  l.compute_major = prop.major;
  l.compute_minor = prop.minor;
  l.warp_size = prop.warpSize;
  l.max_threads_per_block = prop.maxThreadsPerBlock;
  l.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  l.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
  l.regs_per_sm = prop.regsPerMultiprocessor;
  l.regs_per_block = prop.regsPerBlock;
  l.smem_per_sm = static_cast<int>(prop.sharedMemPerMultiprocessor);
  l.smem_per_block_optin = static_cast<int>(prop.sharedMemPerBlockOptin);
  l.smem_reserved_per_block = static_cast<int>(prop.reservedSharedMemPerBlock);
  return l;
}

}  // namespace sgemm_tune
