// sgemm-tune: parses the command line, runs the chosen command, and turns exceptions
// into one line on stderr and an exit code.
//   0 success, 1 error (bad input, failed run), 2 bad command line, 3 no usable GPU
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tuner/cli/commands.h"
#include "tuner/common/errors.h"
#include "tuner/common/text.h"
#include "tuner/pipeline/tune.h"
#include "tuner/time/measure_worker.h"
#include "tuner/version.h"

namespace {

std::string quote_command_line(int argc, char **argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.find_first_of(" \t'\"") != std::string::npos) arg = "'" + arg + "'";
    out += (i ? " " : "") + arg;
  }
  return out;
}

}  // namespace

int main(int argc, char **argv) {
  // The measurement worker the tuner starts for itself (tuner/time/measure_worker.h);
  // not a user command, so not in --help.
  if (argc == 2 && std::string(argv[1]) == "__measure-worker") return sgemm_tune::run_measure_worker();

  CLI::App app{
      "sgemm-tune: tunes the tile configuration of a double-buffered CUDA SGEMM kernel.\n"
      "Compiles each candidate with NVRTC, prunes those that cannot reach good residency,\n"
      "verifies and times the rest against cuBLAS, and records everything in SQLite.\n\n"
      "  sgemm-tune --space search_spaces/4096.json\n"
      "  sgemm-tune --space search_spaces/4096.json --dry-run --arch sm_90 --json\n",
      "sgemm-tune"};
  app.set_version_flag("--version", sgemm_tune::kTunerVersion);
  app.require_subcommand(0, 1);
  namespace cli = sgemm_tune::cli;
  const cli::Command tune = cli::add_tune_command(app);
  const std::vector<cli::Command> others = {cli::add_best_command(app), cli::add_stale_command(app),
                                            cli::add_emit_command(app), cli::add_export_command(app),
                                            cli::add_import_command(app), cli::add_report_command(app),
                                            cli::add_replay_command(app), cli::add_replay_data_command(app)};

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    // --help and --version end here with 0; every real parse error is exit code 2.
    return app.exit(e) == 0 ? 0 : 2;
  }

  const std::string command_line = quote_command_line(argc, argv);
  try {
    for (const auto &command : others)
      if (command.app->parsed()) return command.run(command_line);
    return tune.run(command_line);
  } catch (const sgemm_tune::TuningInterrupted &e) {
    std::cerr << "sgemm-tune: " << sgemm_tune::terminal_safe(e.what()) << "\n";
    return 130;
  } catch (const sgemm_tune::NoGpuError &e) {
    std::cerr << "sgemm-tune: " << sgemm_tune::terminal_safe(e.what()) << "\n";
    return 3;
  } catch (const sgemm_tune::UserError &e) {
    std::cerr << "sgemm-tune: error: " << sgemm_tune::terminal_safe(e.what()) << "\n";
    return 1;
  } catch (const std::exception &e) {
    std::cerr << "sgemm-tune: failed: " << sgemm_tune::terminal_safe(e.what()) << "\n";
    return 1;
  }
}
