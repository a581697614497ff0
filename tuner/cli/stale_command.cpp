// sgemm-tune stale: the best-per-shape entries whose fingerprint no longer matches the
// template, compile options, NVRTC, driver or tuner in hand, and what changed.
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "tuner/cli/commands.h"
#include "tuner/cli/common_options.h"
#include "tuner/common/text.h"
#include "tuner/pipeline/report.h"
#include "tuner/query/environment.h"

namespace sgemm_tune::cli {
namespace {

struct StaleArgs {
  DatabaseOption db;
  EnvironmentOptions env;
  std::string gpu;
  bool json = false;
};

int run(const StaleArgs &a) {
  Database db = open_existing_database(a.db.path);
  const CurrentEnvironment env = current_environment(a.env.kernel(), a.env.compile_options, a.env.device);
  std::vector<BestEntry> stale;
  std::size_t total = 0;
  for (auto &e : best_entries(db, env)) {
    if (!a.gpu.empty() && e.gpu_name != a.gpu) continue;
    ++total;
    if (e.stale()) stale.push_back(std::move(e));
  }
  if (a.json) {
    nlohmann::json j;
    j["schema_version"] = 1;
    j["entries"] = total;
    nlohmann::json list = nlohmann::json::array();
    for (const auto &e : stale) {
      nlohmann::json x = tile_to_json(e.tile);
      x["gpu"] = e.gpu_name;
      x["shape"] = e.shape.to_string();
      x["measured_at"] = e.measured_at;
      x["run_id"] = e.run_id;
      x["changes"] = fingerprint_changes_to_json(e.changes);
      list.push_back(std::move(x));
    }
    j["stale"] = list;
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 0;
  }
  std::cout << stale.size() << " of " << total << " best-per-shape entries are stale\n";
  for (const auto &e : stale) {
    std::cout << "  " << terminal_safe(e.gpu_name) << " " << e.shape.to_string() << " (run " << e.run_id << ", " << e.measured_at
              << "):";
    for (const auto &c : e.changes)
      std::cout << " " << c.part << " " << terminal_safe(c.recorded) << " -> " << terminal_safe(c.current) << ";";
    std::cout << "\n";
  }
  if (!stale.empty()) std::cout << "re-search them with: sgemm-tune --space FILE --stale\n";
  return 0;
}

}  // namespace

Command add_stale_command(CLI::App &root) {
  auto args = std::make_shared<StaleArgs>();
  CLI::App *sub = root.add_subcommand("stale", "List tunings whose kernel, compiler, driver or GPU has changed");
  sub->add_option("--gpu", args->gpu, "Only this GPU's entries");
  sub->add_flag("--json", args->json, "Print one JSON object");
  args->db.add(*sub);
  args->env.add(*sub);
  return Command{sub, [args](const std::string &) { return run(*args); }};
}

}  // namespace sgemm_tune::cli
