// sgemm-tune best --shape MxNxK: the best verified configuration for a shape on a GPU, or,
// for a shape never tuned, what the generated header's rule would pick.
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "sgemm_tuned_select.h"
#include "tuner/cli/commands.h"
#include "tuner/cli/common_options.h"
#include "tuner/common/errors.h"
#include "tuner/common/text.h"
#include "tuner/pipeline/report.h"
#include "tuner/query/environment.h"

namespace sgemm_tune::cli {
namespace {

struct BestArgs {
  DatabaseOption db;
  EnvironmentOptions env;
  std::string shape;
  std::string gpu;
  bool json = false;
};

// The GPU a query is about: --gpu, else the one in hand, else the only one tuned.
std::string chosen_gpu(const std::string &asked, const CurrentEnvironment &env, Database &db, const std::string &path) {
  if (!asked.empty()) return asked;
  if (!env.gpu_name.empty()) return env.gpu_name;
  const auto gpus = tuned_gpus(db);
  if (gpus.size() == 1) return gpus.front();
  if (gpus.empty()) throw UserError(path + " holds no verified results: run a tuning first");
  std::string list;
  for (const auto &g : gpus) list += (list.empty() ? "" : ", ") + terminal_safe(g);
  throw UserError("no GPU here and " + path + " holds results for several (" + list + "): choose one with --gpu");
}

nlohmann::json entry_json(const BestEntry &e) {
  nlohmann::json j = tile_to_json(e.tile);
  j["tuned_shape"] = e.shape.to_string();
  j["time_ms"] = e.time_ms;
  j["tflops"] = e.tflops;
  j["percent_of_cublas"] = e.percent_of_cublas;
  j["measured_at"] = e.measured_at;
  j["run_id"] = e.run_id;
  j["fingerprint"] = e.fingerprint_hash;
  j["stale"] = e.stale();
  j["changes"] = fingerprint_changes_to_json(e.changes);
  j["unchecked"] = e.unchecked;
  return j;
}

// The SM count run `run_id` recorded: what the generated header's edge rule (select_edges)
// reads from the GPU it runs on.
int recorded_sm_count(Database &db, std::int64_t run_id) {
  Statement st = db.prepare("SELECT sm_count FROM runs WHERE id = :id");
  st.bind(":id", run_id);
  return st.step() ? static_cast<int>(st.column_int("sm_count")) : 0;
}

void print_entry(const BestEntry &e, std::ostream &out) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "  %.3f ms, %.2f TFLOP/s, %.1f%% of cuBLAS at %s, measured %s (run %lld)\n", e.time_ms,
                e.tflops, e.percent_of_cublas, e.shape.to_string().c_str(), e.measured_at.c_str(),
                static_cast<long long>(e.run_id));
  out << "  " << describe_tile(e.tile) << "\n" << buf;
  if (e.stale()) {
    out << "  STALE, measured under another";
    for (const auto &c : e.changes) out << " " << c.part << " (" << c.recorded << ", now " << c.current << ")";
    out << ": tune again (sgemm-tune --space FILE --stale)\n";
  } else {
    out << "  fresh: same template, compile options, NVRTC and tuner";
    out << (e.unchecked.empty() ? ", driver and GPU" : "") << "\n";
  }
  for (const auto &u : e.unchecked) out << "  not checked: " << u << "\n";
}

int run(const BestArgs &a) {
  const Shape shape = parse_shape(a.shape);
  Database db = open_existing_database(a.db.path);
  const CurrentEnvironment env = current_environment(a.env.kernel(), a.env.compile_options, a.env.device);
  const std::string gpu = chosen_gpu(a.gpu, env, db, a.db.path);

  std::vector<BestEntry> entries;
  for (auto &e : best_entries(db, env))
    if (e.gpu_name == gpu) entries.push_back(std::move(e));
  if (entries.empty()) throw UserError(a.db.path + " holds no verified results for " + terminal_safe(gpu));

  std::vector<sgemm_tune_kernels::TunedShape> shapes;
  for (const auto &e : entries)
    shapes.push_back({e.shape.M, e.shape.N, e.shape.K, e.tile, e.percent_of_cublas, e.tflops});
  sgemm_tune_kernels::SelectKind kind;
  const int i = sgemm_tune_kernels::select_tuned(shapes.data(), static_cast<int>(shapes.size()), shape.M, shape.N,
                                                 shape.K, true, &kind);
  // Rule 3, for operands the fast kernel reads: the edge variant of a tuned tile.
  const int edges = i >= 0 ? -1
                           : sgemm_tune_kernels::select_edges(shapes.data(), static_cast<int>(shapes.size()), shape.M,
                                                              shape.N, shape.K,
                                                              recorded_sm_count(db, entries.front().run_id));
  const char *selection = kind == sgemm_tune_kernels::SelectKind::exact     ? "exact"
                          : kind == sgemm_tune_kernels::SelectKind::nearest ? "nearest"
                          : edges >= 0                                      ? "edges"
                                                                            : "default";
  if (a.json) {
    nlohmann::json j;
    j["schema_version"] = 1;
    j["gpu"] = gpu;
    j["shape"] = shape.to_string();
    j["selection"] = selection;
    if (i >= 0 || edges >= 0) {
      j["config"] = entry_json(entries[static_cast<std::size_t>(i >= 0 ? i : edges)]);
    } else {
      j["config"] = tile_to_json(sgemm_tune_kernels::kDefaultTile);
      j["config"]["bounds_checked"] = true;
    }
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 0;
  }
  std::cout << shape.to_string() << " on " << terminal_safe(gpu) << ": ";
  if (kind == sgemm_tune_kernels::SelectKind::exact) {
    std::cout << "tuned\n";
    print_entry(entries[static_cast<std::size_t>(i)], std::cout);
  } else if (kind == sgemm_tune_kernels::SelectKind::nearest) {
    std::cout << "not tuned; the generated header uses the configuration of the nearest tuned shape that it divides\n";
    print_entry(entries[static_cast<std::size_t>(i)], std::cout);
  } else if (edges >= 0) {
    std::cout << "not tuned, and no tuned tile divides it; with 16-byte aligned rows the generated header runs "
                 "the edge variant of the tuned configuration predicted fastest for it (else the bounds-checked "
                 "kernel with the default tile)\n";
    print_entry(entries[static_cast<std::size_t>(edges)], std::cout);
  } else {
    std::cout << "not tuned, and no tuned tile divides it; the generated header uses the bounds-checked kernel with "
                 "the default tile\n  "
              << describe_tile(sgemm_tune_kernels::kDefaultTile) << "\n";
  }
  return 0;
}

}  // namespace

Command add_best_command(CLI::App &root) {
  auto args = std::make_shared<BestArgs>();
  CLI::App *sub = root.add_subcommand("best", "The best verified configuration for a problem shape");
  sub->add_option("--shape", args->shape, "Problem shape MxNxK")->required()->type_name("MxNxK");
  sub->add_option("--gpu", args->gpu, "Ask about this GPU (its name as the database records it) instead of this one");
  sub->add_flag("--json", args->json, "Print one JSON object");
  args->db.add(*sub);
  args->env.add(*sub);
  return Command{sub, [args](const std::string &) { return run(*args); }};
}

}  // namespace sgemm_tune::cli
