// sgemm-tune [tune] --space FILE: search a space and record every result.
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "tuner/cli/commands.h"
#include "tuner/cli/common_options.h"
#include "tuner/cli/progress_printer.h"
#include "tuner/common/errors.h"
#include "tuner/pipeline/report.h"
#include "tuner/pipeline/tune.h"
#include "tuner/query/environment.h"

namespace sgemm_tune::cli {
namespace {

struct TuneArgs {
  std::string space;
  std::vector<std::string> shapes;
  DatabaseOption db;
  EnvironmentOptions env;
  int jobs = 0;  // 0: not given, use every core
  bool dry_run = false;
  bool stale = false;
  std::string arch;
  bool json = false;
  bool quiet = false;
  std::size_t top = 10;
  std::string strategy;
  std::optional<std::size_t> budget;
  std::optional<std::uint64_t> seed;
  std::string shard;
  std::optional<std::string> devices;  // --devices as given; none: --device
  bool in_process = false;
};

// This program's path, to start it again as the measurement worker.
std::string own_executable() {
  std::error_code ec;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find this program's path for the measurement worker: " + ec.message());
  return path.string();
}

void add_options(CLI::App &app, TuneArgs &a) {
  app.add_option("--space", a.space, "Search space file (JSON), e.g. search_spaces/4096.json");
  app.add_option("--shape", a.shapes,
                 "Problem shape to tune instead of the space's: MxNxK, or a BLAS product MxNxK:OPS or MxNxK:OPS:col; "
                 "repeatable")
      ->type_name("SHAPE");
  a.db.add(app);
  a.env.add(app);
  app.add_option("--devices", a.devices,
                 "Measure on several GPUs of one model at once: all, or a list such as 0,1 (a measurement worker\n"
                 "on each, fed by the one compile pool; every result records the GPU that measured it)")
      ->type_name("all|LIST")
      ->excludes(app.get_option("--device"));
  app.add_option("-j,--jobs", a.jobs, "Parallel NVRTC compilations (default: all cores)")
      ->check(CLI::Range(1, 4096).description("at least 1"));
  app.add_flag("--dry-run", a.dry_run,
               "Enumerate, compile and prune, but touch no GPU and write no database; needs --arch without a GPU");
  app.add_option("--arch", a.arch, "Architecture to compile for, e.g. sm_90 (default: the GPU's)");
  app.add_flag("--json", a.json, "Print the report as one JSON object on stdout (progress stays on stderr)");
  app.add_flag("-q,--quiet", a.quiet, "No progress on stderr");
  app.add_option("--top", a.top, "Rows of the ranked table per shape")->capture_default_str();
  app.add_option("--strategy", a.strategy,
                 "Override the space's search strategy: exhaustive (time every survivor), staged, random, genetic\n"
                 "or model (learns from the timings so far and those the database holds)")
      ->check(CLI::IsMember({"exhaustive", "staged", "random", "genetic", "model"}));
  app.add_option("--budget", a.budget,
                 "Candidates to time, for random, genetic and model (0: every survivor); failed and pruned ones cost none")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 30));
  app.add_option("--seed", a.seed, "Seed of random, genetic and model: the same seed, the same proposals");
  app.add_option("--shard", a.shard,
                 "Search only part I of N of the candidates (each with all its shapes), e.g. for a Slurm job array;\n"
                 "merge the shards' databases with sgemm-tune import")
      ->type_name("I/N");
  app.add_flag("--in-process", a.in_process,
               "Run candidates in this process (faster to start; a faulting candidate then ends the run)");
  app.add_flag("--stale", a.stale,
               "Re-search only the space's shapes whose best tuning on this GPU is stale (sgemm-tune stale)");
}

// The shapes among `shapes` whose best entry for the GPU in hand is stale.
std::vector<Shape> stale_shapes(const TuneArgs &a, const DeviceSelection &devices, const std::vector<Shape> &shapes) {
  const CurrentEnvironment env = current_environment(a.env.kernel(), a.env.compile_options, devices.first());
  if (env.gpu_name.empty()) throw NoGpuError("no usable GPU: --stale compares the tunings with the GPU in hand");
  Database db = open_existing_database(a.db.path);
  std::vector<Shape> out;
  for (const BestEntry &e : best_entries(db, env))
    if (e.gpu_name == env.gpu_name && e.stale() && std::find(shapes.begin(), shapes.end(), e.shape) != shapes.end())
      out.push_back(e.shape);
  return out;
}

int run(const TuneArgs &a, const std::string &command_line) {
  if (a.space.empty()) throw UserError("no search space given: pass --space FILE (e.g. --space search_spaces/4096.json)");
  TuneOptions o;
  o.devices = a.devices ? parse_device_selection(*a.devices) : DeviceSelection::one(a.env.device);
  o.space = load_search_space(a.space);
  o.shapes = o.space.shapes;
  if (!a.strategy.empty()) {
    if (a.strategy == "staged" && o.space.strategy.probe.empty())
      throw UserError(a.space + ": --strategy staged needs \"strategy\": {\"probe\": {...}} in the space file");
    o.space.strategy.kind = *strategy_kind(a.strategy);
  }
  if (a.budget) o.space.strategy.budget = *a.budget;
  if (!a.shard.empty()) o.shard = parse_shard(a.shard);
  if (a.seed) o.space.strategy.seed = *a.seed;
  if (!a.shapes.empty()) {
    o.shapes.clear();
    for (const auto &s : a.shapes) o.shapes.push_back(parse_shape(s));
  }
  if (a.stale) {
    if (a.dry_run) throw UserError("--stale compares with the GPU in hand: it cannot be combined with --dry-run");
    o.shapes = stale_shapes(a, o.devices, o.shapes);
    if (o.shapes.empty()) {
      std::cout << "nothing to re-search: no shape of " << a.space << " has a stale tuning on this GPU\n";
      return 0;
    }
    std::cerr << "re-searching " << o.shapes.size() << " stale shape(s)\n";
  }
  o.db_path = a.db.path;
  o.jobs = a.jobs > 0 ? a.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  o.dry_run = a.dry_run;
  if (!a.arch.empty()) o.arch = a.arch;
  o.kernel = a.env.kernel();
  o.extra_compile_options = a.env.compile_options;
  o.command_line = command_line;
  if (!a.in_process) o.worker_binary = own_executable();

  // Ctrl-C or a TERM from a job scheduler: stop after the candidate in hand, with the run
  // recorded as failed and everything measured so far kept for a resume.
  std::signal(SIGINT, [](int) { request_stop(); });
  std::signal(SIGTERM, [](int) { request_stop(); });
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
