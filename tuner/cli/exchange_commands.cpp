// sgemm-tune export / import: tunings, with their fingerprints, as one JSON file.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "tuner/cli/commands.h"
#include "tuner/cli/common_options.h"
#include "tuner/common/errors.h"
#include "tuner/emit/header.h"
#include "tuner/query/environment.h"
#include "tuner/record/database_file.h"
#include "tuner/record/exchange.h"
#include "tuner/record/result_store.h"

namespace sgemm_tune::cli {

Command add_export_command(CLI::App &root) {
  struct Args {
    DatabaseOption db;
    std::string out;
  };
  auto args = std::make_shared<Args>();
  CLI::App *sub = root.add_subcommand("export", "Write every run and result, with fingerprints, to a JSON file");
  sub->add_option("--out", args->out, "File to write")->required();
  args->db.add(*sub);
  return Command{sub, [args](const std::string &) {
                   Database db = open_existing_database(args->db.path);
                   const auto doc = export_database(db);
                   // Text a hand-made database holds need not be UTF-8: replaced, not fatal.
                   write_file_atomically(args->out,
                                         doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
                   std::cerr << "wrote " << args->out << ": " << doc["runs"].size() << " run(s), "
                             << doc["kernels"].size() << " kernel(s)\n";
                   return 0;
                 }};
}

Command add_import_command(CLI::App &root) {
  struct Args {
    DatabaseOption db;
    EnvironmentOptions env;
    std::string file;
  };
  auto args = std::make_shared<Args>();
  CLI::App *sub = root.add_subcommand(
      "import",
      "Add the runs of an exported file or of another database (again: changes nothing). Every field is checked;\n"
      "machine code is kept only where compiling the same tile here gives the same bytes, else emit compiles it again");
  sub->add_option("file", args->file, "File written by sgemm-tune export, or another sgemm-tune database")->required();
  args->db.add(*sub);
  args->env.add(*sub);
  return Command{sub, [args](const std::string &) {
                   ResultStore store(args->db.path);  // creates the database if needed
                   const CodeRebuilder rebuilder(args->env.kernel(), args->env.compile_options);
                   const ImportSummary s = is_sqlite_file(args->file)
                                               ? import_database_file(store.database(), args->file, &rebuilder)
                                               : import_database(store.database(), read_json_file(args->file),
                                                                 args->file, &rebuilder);
                   std::cerr << "imported into " << args->db.path << ": " << s.runs_added << " run(s) added, "
                             << s.runs_already_present << " already present, " << s.results_added << " result(s), "
                             << s.kernels_added << " kernel(s) checked and kept, " << s.kernels_dropped.size()
                             << " dropped\n";
                   for (const std::string &why : s.kernels_dropped)
                     std::cerr << "  dropped " << why << " (sgemm-tune emit compiles it again)\n";
                   return 0;
                 }};
}

}  // namespace sgemm_tune::cli
