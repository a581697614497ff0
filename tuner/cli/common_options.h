// Options several subcommands share, so that each is spelled and explained one way.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tuner/compile/kernel_source.h"

namespace sgemm_tune::cli {

struct DatabaseOption {
  std::string path = "sgemm-tune.db";
  void add(CLI::App &app) {
    app.add_option("--db", path, "SQLite database of tuning results")->capture_default_str();
  }
};

// What the recorded fingerprints are compared with: the template (built in, or a
// directory), extra NVRTC options, and the GPU.
struct EnvironmentOptions {
  std::string template_dir;
  std::vector<std::string> compile_options;
  int device = 0;
  void add(CLI::App &app) {
    app.add_option("--template-dir", template_dir,
                   "Read the kernel template from this directory instead of the copy built into sgemm-tune");
    app.add_option("-X,--compile-option", compile_options, "Extra NVRTC option; repeatable")->allow_extra_args(false);
    app.add_option("--device", device, "CUDA device")->capture_default_str();
  }
  KernelSource kernel() const {
    return template_dir.empty() ? KernelSource::embedded() : KernelSource::from_directory(template_dir);
  }
};

}  // namespace sgemm_tune::cli
