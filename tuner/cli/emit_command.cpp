// sgemm-tune emit --out FILE: a C++ header carrying the best configurations, and the
// machine code that was timed for them, into a user's build.
#include <iostream>
#include <memory>

#include "tuner/cli/commands.h"
#include "tuner/cli/common_options.h"
#include "tuner/common/text.h"
#include "tuner/emit/header.h"
#include "tuner/query/environment.h"

namespace sgemm_tune::cli {
namespace {

struct EmitArgs {
  DatabaseOption db;
  EnvironmentOptions env;
  std::string out;
  std::vector<std::string> gpus;
  bool from_source = false;
};

int run(const EmitArgs &a) {
  Database db = open_existing_database(a.db.path);
  check_writable(a.out);  // before the machine code is compiled, which takes minutes
  const CurrentEnvironment env = current_environment(a.env.kernel(), a.env.compile_options, a.env.device);
  const KernelSource kernel = a.env.kernel();
  EmitOptions options;
  options.database_label = a.db.path;
  options.kernel = a.from_source ? nullptr : &kernel;
  options.gpus = a.gpus;
  const EmittedHeader header = emit_header(db, env, options);
  write_file_atomically(a.out, header.text);
  for (const std::string &m : header.code_mismatches)
    std::cerr << "warning: " << terminal_safe(a.db.path) << " holds machine code for " << terminal_safe(m)
              << " that differs from what sgemm-tune compiles for it; not used (the header ships the compiled code)\n";
  std::cerr << "wrote " << a.out << ": " << header.entries << " tuned shape(s) for " << header.gpus.size()
            << " GPU(s), " << header.with_code << " with machine code compiled from the timed template, "
            << header.with_edges_code << " with their edge variant's";
  if (header.stale) std::cerr << "; " << header.stale << " STALE (see the header's banner, or sgemm-tune stale)";
  std::cerr << "\n";
  return 0;
}

}  // namespace

Command add_emit_command(CLI::App &root) {
  auto args = std::make_shared<EmitArgs>();
  CLI::App *sub = root.add_subcommand("emit", "Generate a C++ header with the tuned configurations");
  sub->add_option("--out", args->out, "Header to write")->required();
  sub->add_option("--gpu", args->gpus, "Only this GPU's configurations; repeatable (default: every tuned GPU)");
  sub->add_flag("--from-source", args->from_source,
                "Ship no machine code: your nvcc compiles every configuration from the template (NVRTC and nvcc "
                "allocate registers differently, so the kernels may run slower than they were timed)");
  args->db.add(*sub);
  args->env.add(*sub);
  return Command{sub, [args](const std::string &) { return run(*args); }};
}

}  // namespace sgemm_tune::cli
