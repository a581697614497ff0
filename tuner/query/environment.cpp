#include "tuner/query/environment.h"

#include <filesystem>

#include "tuner/common/errors.h"
#include "tuner/compile/nvrtc_compiler.h"
#include "tuner/gpu/device_info.h"
#include "tuner/record/migrations.h"
#include "tuner/version.h"

namespace sgemm_tune {

CurrentEnvironment current_environment(const KernelSource &kernel, const std::vector<std::string> &extra_options,
                                       int device) {
  CurrentEnvironment env;
  env.template_hash = kernel.hash;
  env.nvrtc_version = nvrtc_version();
  env.tuner_version = kTunerVersion;
  env.extra_compile_options = extra_options;
  if (gpu_count() > device) {
    const GpuInfo gpu = open_gpu(device);
    env.gpu_name = gpu.name;
    env.compute_capability = gpu.compute_capability();
    env.driver_version = gpu.driver_version;
  }
  return env;
}

Database open_existing_database(const std::string &path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw UserError("no database at " + path + " (tune first, or name one with --db)");
  try {
    Database db = Database::open(path, false);
    migrate(db);
    return db;
  } catch (const SqliteError &e) {
    throw UserError("database " + path + " cannot be used: " + e.what());
  }
}

}  // namespace sgemm_tune
