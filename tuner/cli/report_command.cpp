// sgemm-tune report --out report.html: one self-contained HTML page with plots of what the
// database holds, written from the database alone (no GPU needed).
#include <filesystem>
#include <iostream>
#include <memory>

#include "tuner/cli/commands.h"
#include "tuner/cli/common_options.h"
#include "tuner/query/environment.h"
#include "tuner/report/html_page.h"
#include "tuner/emit/header.h"
#include "tuner/report/report_data.h"
#include "tuner/report/report_database.h"

namespace sgemm_tune::cli {
namespace {

struct ReportArgs {
  DatabaseOption db;
  EnvironmentOptions env;
  std::string out;
  std::string shape;
  std::string gpu;
};

int run(const ReportArgs &a) {
  ReportScope scope;
  if (!a.shape.empty()) scope.shape = parse_shape(a.shape);
  scope.gpu = a.gpu;
  Database db = open_report_database(a.db.path);
  const CurrentEnvironment env = current_environment(a.env.kernel(), a.env.compile_options, a.env.device);
  const nlohmann::json data =
      collect_report_data(db, env, scope, std::filesystem::path(a.db.path).filename().string());
  write_file_atomically(a.out, report_page(data));
  std::cout << "wrote " << a.out << ": " << data["best"].size() << " GPU and shape pairs, " << data["runs"].size()
            << " runs, " << data["candidates"].size() << " timed configurations\n";
  return 0;
}

}  // namespace

Command add_report_command(CLI::App &root) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App *sub = root.add_subcommand(
      "report", "Write one self-contained HTML page with plots of the tunings in the database (works offline)");
  sub->add_option("--out", args->out, "The HTML file to write")->required();
  sub->add_option("--shape", args->shape, "Only this problem shape (MxNxK, or a BLAS product MxNxK:OPS[:col])")
      ->type_name("SHAPE");
  sub->add_option("--gpu", args->gpu, "Only this GPU (its name as the database records it)");
  args->db.add(*sub);
  args->env.add(*sub);
  return Command{sub, [args](const std::string &) { return run(*args); }};
}

}  // namespace sgemm_tune::cli
