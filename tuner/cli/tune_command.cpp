// sgemm-tune [tune] --space FILE: search a space and record every result.
#include <iostream>
#include <memory>
#include <thread>

#include "tuner/cli/commands.h"
#include "tuner/cli/progress_printer.h"
#include "tuner/common/errors.h"
#include "tuner/pipeline/report.h"
#include "tuner/pipeline/tune.h"

namespace sgemm_tune::cli {
namespace {

struct TuneArgs {
  std::string space;
  std::vector<std::string> shapes;
  std::string db = "sgemm-tune.db";
  int jobs = 0;  // 0: not given, use every core
  int device = 0;
  bool dry_run = false;
  std::string arch;
  bool json = false;
  bool quiet = false;
  std::size_t top = 10;
  std::string template_dir;
  std::string strategy;
  std::vector<std::string> compile_options;
};

void add_options(CLI::App &app, TuneArgs &a) {
  app.add_option("--space", a.space, "Search space file (JSON), e.g. search_spaces/4096.json");
  app.add_option("--shape", a.shapes, "Problem shape MxNxK to tune instead of the space's; repeatable")
      ->type_name("MxNxK");
  app.add_option("--db", a.db, "SQLite database that receives every result")->capture_default_str();
  app.add_option("-j,--jobs", a.jobs, "Parallel NVRTC compilations (default: all cores)")
      ->check(CLI::Range(1, 4096).description("at least 1"));
  app.add_option("--device", a.device, "CUDA device to tune on")->capture_default_str();
  app.add_flag("--dry-run", a.dry_run,
               "Enumerate, compile and prune, but touch no GPU and write no database; needs --arch without a GPU");
  app.add_option("--arch", a.arch, "Architecture to compile for, e.g. sm_90 (default: the GPU's)");
  app.add_flag("--json", a.json, "Print the report as one JSON object on stdout (progress stays on stderr)");
  app.add_flag("-q,--quiet", a.quiet, "No progress on stderr");
  app.add_option("--top", a.top, "Rows of the ranked table per shape")->capture_default_str();
  app.add_option("--template-dir", a.template_dir,
                 "Read the kernel template from this directory instead of the copy built into sgemm-tune");
  app.add_option("--strategy", a.strategy,
                 "Override the space's search strategy: exhaustive (time every survivor) or staged")
      ->check(CLI::IsMember({"exhaustive", "staged"}));
  app.add_option("-X,--compile-option", a.compile_options, "Extra NVRTC option; repeatable")->allow_extra_args(false);
}

int run(const TuneArgs &a, const std::string &command_line) {
  if (a.space.empty()) throw UserError("no search space given: pass --space FILE (e.g. --space search_spaces/4096.json)");
  TuneOptions o;
  o.space = load_search_space(a.space);
  o.shapes = o.space.shapes;
  if (a.strategy == "exhaustive") o.space.strategy.kind = StrategySettings::Kind::exhaustive;
  if (a.strategy == "staged") {
    if (o.space.strategy.probe.empty())
      throw UserError(a.space + ": --strategy staged needs \"strategy\": {\"probe\": {...}} in the space file");
    o.space.strategy.kind = StrategySettings::Kind::staged;
  }
  if (!a.shapes.empty()) {
    o.shapes.clear();
    for (const auto &s : a.shapes) o.shapes.push_back(parse_shape(s));
  }
  o.db_path = a.db;
  o.jobs = a.jobs > 0 ? a.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  o.device = a.device;
  o.dry_run = a.dry_run;
  if (!a.arch.empty()) o.arch = a.arch;
  o.kernel = a.template_dir.empty() ? KernelSource::embedded() : KernelSource::from_directory(a.template_dir);
  o.extra_compile_options = a.compile_options;
  o.command_line = command_line;

  ProgressPrinter progress(!a.quiet);
  TuneCallbacks cb;
  cb.progress = [&](const ProgressUpdate &p) { progress.update(p); };
  cb.message = [&](const std::string &m) { progress.message(m); };
  TuneReport report;
  try {
    report = run_tuning(o, cb);
  } catch (...) {
    progress.finish();
    throw;
  }
  progress.finish();
  if (a.json)
    std::cout << report_to_json(report).dump(2) << "\n";
  else
    print_report(report, std::cout, a.top);
  return 0;
}

}  // namespace

Command add_tune_command(CLI::App &root) {
  auto root_args = std::make_shared<TuneArgs>();
  auto sub_args = std::make_shared<TuneArgs>();
  CLI::App *sub =
      root.add_subcommand("tune", "Search a space of tile configurations and record every result (the default)");
  add_options(*sub, *sub_args);
  add_options(root, *root_args);
  return Command{sub, [sub, root_args, sub_args](const std::string &command_line) {
                   return run(sub->parsed() ? *sub_args : *root_args, command_line);
                 }};
}

}  // namespace sgemm_tune::cli
