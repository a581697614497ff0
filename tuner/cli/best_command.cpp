// sgemm-tune best --shape MxNxK: the best verified configuration for a shape on a GPU, or,
// for a shape never tuned, what the generated header's rule would pick.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "sgemm_blas_call.h"
#include "sgemm_tuned_select.h"
#include "tuner/cli/commands.h"
#include "tuner/cli/common_options.h"
#include "tuner/time/shape_route.h"
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

// Whose tunings answer a query, as the generated header falls back (CLBlast's order): the
// GPU asked for with --gpu; else the GPU in hand (rule "device"), or, when it was never
// tuned, the first tuned GPU of its compute capability ("architecture"), or none
// ("default": the default tile); without a GPU here, the only GPU the database holds.
struct ChosenGpu {
  std::string name;  // empty for the default tile
  std::string rule;  // asked, device, architecture, default, database
};

ChosenGpu chosen_gpu(const std::string &asked, const CurrentEnvironment &env, const std::vector<BestEntry> &all,
                     const std::string &path) {
  if (!asked.empty()) return {asked, "asked"};
  if (all.empty()) throw UserError(path + " holds no verified results: run a tuning first");
  if (!env.gpu_name.empty()) {
    for (const auto &e : all)
      if (e.gpu_name == env.gpu_name && e.compute_capability == env.compute_capability) return {e.gpu_name, "device"};
    for (const auto &e : all)  // in GPU-name order, as the header's tables
      if (e.compute_capability == env.compute_capability) return {e.gpu_name, "architecture"};
    return {"", "default"};
  }
  std::vector<std::string> gpus;
  for (const auto &e : all)
    if (std::find(gpus.begin(), gpus.end(), e.gpu_name) == gpus.end()) gpus.push_back(e.gpu_name);
  if (gpus.size() == 1) return {gpus.front(), "database"};
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
  j["timing_method"] = e.fingerprint.timing_method;
  j["stale"] = e.stale();
  j["changes"] = fingerprint_changes_to_json(e.changes);
  j["unchecked"] = e.unchecked;
  return j;
}

// The SM count run `run_id` recorded: what the generated header's selection (select_kernel)
// reads from the GPU it runs on.
int recorded_sm_count(Database &db, std::int64_t run_id) {
  Statement st = db.prepare("SELECT sm_count FROM runs WHERE id = :id");
  st.bind(":id", run_id);
  return st.step() ? static_cast<int>(st.column_int("sm_count")) : 0;
}

void print_entry(const BestEntry &e, std::ostream &out) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "  %.3f ms, %.2f TFLOP/s, %.1f%% of cuBLAS at %s, measured %s (run %lld%s)\n",
                e.time_ms, e.tflops, e.percent_of_cublas, e.shape.to_string().c_str(), e.measured_at.c_str(),
                static_cast<long long>(e.run_id),
                e.fingerprint.timing_method == "graphs" ? ", timed as CUDA graphs" : "");
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
  std::vector<BestEntry> all = best_entries(db, env);
  const ChosenGpu chosen = chosen_gpu(a.gpu, env, all, a.db.path);
  const std::string &gpu = chosen.name;

  std::vector<BestEntry> entries;
  for (auto &e : all)
    if (e.gpu_name == gpu) entries.push_back(std::move(e));
  if (entries.empty() && chosen.rule != "default")
    throw UserError(a.db.path + " holds no verified results for " + terminal_safe(gpu));

  std::vector<sgemm_tune_kernels::TunedShape> shapes;
  for (const auto &e : entries)
    shapes.push_back(tuned_shape(e));
  // As the generated header selects for this shape's product on dense operands (row-major
  // for a plain shape, as its layout and ops say for a BLAS one) at aligned addresses
  // (parse_shape keeps every dimension within an int): the product the edge kernel would
  // run, whether the fast kernel can read the operands, and how a split adds its parts, by
  // the header's own rules.
  // A GPU of compute capability 9.0 or newer launches clusters, and an emitted header splits
  // K as clusters there where cluster_split_fits the clusters its GPCs hold at once. The
  // database records the SMs, not the GPCs: here any SMs are taken to hold a cluster
  // (uniform_cluster_slots), which on a GPU whose GPCs leave SMs over (an H100 or H200: 17
  // clusters of 6 blocks, not 22) may price as clusters a split the header prices after the
  // scale pass.
  const int sms = entries.empty() ? 0 : recorded_sm_count(db, entries.front().run_id);
  const bool clusters = !entries.empty() && std::atoi(entries.front().compute_capability.c_str()) >= 9;
  const sgemm_tune_kernels::ClusterSlots uniform = sgemm_tune_kernels::uniform_cluster_slots(sms);
  const sgemm_tune_kernels::RowMajorGemm product = shape_product(shape, 1.0f, nullptr, nullptr, 0.0f, nullptr);
  const sgemm_tune_kernels::Selection s = sgemm_tune_kernels::select_for_product(
      shapes.data(), static_cast<int>(shapes.size()), product, sms, true, clusters ? &uniform : nullptr);
  // A B that stays transposed is read by the kernel of any operands (which has no tail split).
  const bool any_kernel = sgemm_tune_kernels::needs_any_kernel(product);
  const char *edge_kernel = any_kernel ? "any" : "edges";
  const char *selection = s.kind == sgemm_tune_kernels::SelectKind::exact       ? "exact"
                          : s.kind == sgemm_tune_kernels::SelectKind::predicted ? "predicted"
                                                                                : "default";
  const std::string &gpu_rule = chosen.rule;
  const std::string gpu_label = gpu.empty() ? env.gpu_name : gpu;
  if (a.json) {
    nlohmann::json j;
    j["schema_version"] = 2;
    j["gpu"] = gpu_label;
    j["tunings_of"] = gpu;
    j["gpu_rule"] = gpu_rule;
    j["shape"] = shape.to_string();
    j["selection"] = selection;
    if (s.entry >= 0) {
      j["config"] = entry_json(entries[static_cast<std::size_t>(s.entry)]);
      j["kernel"] = s.edges ? edge_kernel : "fast";
      // split_k 0 with tail_split: the edge kernel's tail split (only the last wave's tiles
      // split); -1 with fill_split: K split as many ways as fill the GPU where the product has
      // fewer tiles than it holds (the kernel of any operands, at an exact BLAS match).
      j["split_k"] = s.splits;
      j["tail_split"] = s.edges && s.splits == sgemm_tune_kernels::kEdgeTailSplit;
      j["fill_split"] = s.edges && s.splits == sgemm_tune_kernels::kEdgeFillSplit;
      if (s.kind == sgemm_tune_kernels::SelectKind::predicted) j["predicted_ms"] = s.predicted_ps * 1e-9;
    } else {
      j["config"] = tile_to_json(sgemm_tune_kernels::kDefaultTile);
      j["kernel"] = edge_kernel;
    }
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 0;
  }
  std::cout << shape.to_string() << " on " << terminal_safe(gpu_label) << " (" << gpu_rule << " rule";
  if (gpu_rule == "architecture") std::cout << ": tunings of " << terminal_safe(gpu);
  std::cout << "): ";
  if (s.kind == sgemm_tune_kernels::SelectKind::exact) {
    std::cout << "tuned";
    // A BLAS shape runs on the kernel it was timed on, split as it was.
    if (s.edges)
      std::cout << "; the generated header runs it as it was timed, on the " << (any_kernel ? "any-operands" : "edge")
                << " kernel, "
                << (s.splits == sgemm_tune_kernels::kEdgeTailSplit ? "the last wave's tiles split along K (tail split)"
                                                                  : "K split to fill the GPU where its tiles do not");
    std::cout << "\n";
    print_entry(entries[static_cast<std::size_t>(s.entry)], std::cout);
  } else if (s.kind == sgemm_tune_kernels::SelectKind::predicted) {
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "not tuned; the generated header runs the %s kernel of the tuned configuration predicted fastest "
                  "(%.3f ms on %d SMs%s), for %s:\n",
                  !s.edges ? "fast" : any_kernel ? "any-operands" : "edge", s.predicted_ps * 1e-9, sms,
                  s.edges && s.splits == sgemm_tune_kernels::kEdgeTailSplit
                      ? ", the last wave's tiles split along K (tail split)"
                      : s.splits > 1 ? (", K split " + std::to_string(s.splits) + " ways").c_str() : "",
                  shape.blas ? "dense operands of this layout and ops at aligned addresses"
                             : "row-major operands with aligned rows");
    std::cout << buf;
    print_entry(entries[static_cast<std::size_t>(s.entry)], std::cout);
  } else {
    std::cout << "no tuned tile takes it; the generated header uses the edge kernel with the default tile\n  "
              << describe_tile(sgemm_tune_kernels::kDefaultTile) << "\n";
  }
  return 0;
}

}  // namespace

Command add_best_command(CLI::App &root) {
  auto args = std::make_shared<BestArgs>();
  CLI::App *sub = root.add_subcommand("best", "The best verified configuration for a problem shape");
  sub->add_option("--shape", args->shape,
                  "Problem shape MxNxK (dense row-major), or a BLAS product MxNxK:OPS or MxNxK:OPS:col (OPS: NN, "
                  "NT, TN or TT, op(A) then op(B))")
      ->required()
      ->type_name("SHAPE");
  sub->add_option("--gpu", args->gpu, "Ask about this GPU (its name as the database records it) instead of this one");
  sub->add_flag("--json", args->json, "Print one JSON object");
  args->db.add(*sub);
  args->env.add(*sub);
  return Command{sub, [args](const std::string &) { return run(*args); }};
}

}  // namespace sgemm_tune::cli
