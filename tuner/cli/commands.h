// The subcommands. Each adds its own options to the parser and returns the function that
// runs it once the command line has been parsed.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace sgemm_tune::cli {

struct Command {
  CLI::App *app = nullptr;  // the subcommand; parsed() says whether it was chosen
  std::function<int(const std::string &command_line)> run;
};

// `tune`. It is also the default command, `sgemm-tune --space FILE`: its options are
// added to `root` too, and `run` serves both.
Command add_tune_command(CLI::App &root);
Command add_best_command(CLI::App &root);
Command add_stale_command(CLI::App &root);
Command add_emit_command(CLI::App &root);
Command add_export_command(CLI::App &root);
Command add_import_command(CLI::App &root);
Command add_report_command(CLI::App &root);
Command add_replay_command(CLI::App &root);
Command add_replay_data_command(CLI::App &root);

}  // namespace sgemm_tune::cli
