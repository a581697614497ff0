#include "tuner/pipeline/report.h"

#include <cstdio>
#include <string>

namespace sgemm_tune {
namespace {

std::string format(const char *fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string right_aligned(const std::string &text, std::size_t width) {
  return std::string(text.size() < width ? width - text.size() : 0, ' ') + text;
}

std::string tile_columns(const SgemmTile &t) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%4d %4d %3d %4d %4d %6d %3d %3d %6d %3d %3d", t.BM, t.BN, t.BK, t.WM, t.WN, t.WNITER,
                t.TM, t.TN, t.STAGES, t.PREFETCH, t.STREAMK);
  return buf;
}

// What each GPU of the run measured: with several, how the work was shared.
void print_devices(const TuneReport &r, std::ostream &out) {
  if (r.devices.empty()) return;
  out << "measured on " << (r.devices.size() == 1 ? "GPU " : "GPUs ");
  for (std::size_t i = 0; i < r.devices.size(); ++i) {
    const DeviceReport &d = r.devices[i];
    out << (i ? "; " : "") << d.device;
    if (!d.pci_bus_id.empty()) out << " (" << d.pci_bus_id << ")";
    out << ": " << d.candidates << " candidates in " << format("%.1f", d.gpu_seconds) << " s";
  }
  out << "\n";
}

// cuBLAS at one shape on each GPU but the first (whose time heads the shape's table).
void print_other_cublas(const TuneReport &r, std::size_t shape, std::ostream &out) {
  for (std::size_t i = 1; i < r.devices.size(); ++i) {
    const DeviceReport &d = r.devices[i];
    if (shape >= d.cublas_ms.size() || shape >= d.cublas_end_ms.size()) continue;
    out << "  cuBLAS on GPU " << d.device << ": " << format("%.3f", d.cublas_ms[shape]) << " ms; at the end "
        << format("%.3f", d.cublas_end_ms[shape]) << " ms (its results are compared with these)\n";
  }
}

void print_counts(const TuneReport &r, std::ostream &out) {
  const TuneCounts &c = r.counts;
  out << "candidates: " << c.enumerated << " enumerated, " << c.excluded_by_constraint << " excluded by constraints, "
      << c.invalid << " invalid, " << c.compile_failed << " failed to compile, " << c.pruned_total() << " pruned";
  if (!c.pruned.empty()) {
    out << " (";
    bool first = true;
    for (const auto &[reason, n] : c.pruned) {
      out << (first ? "" : ", ") << reason << " " << n;
      first = false;
    }
    out << ")";
  }
  if (c.companion_failed)
    out << ", " << c.companion_failed << " (candidate, shape) pairs whose kernel failed to compile";
  out << ", " << c.survivors << " survivors";
  if (c.deferred) out << ", " << c.deferred << " left for the second stage";
  out << "\n";
  if (!r.finalists.empty()) {
    out << "search: staged, " << r.finalists.size() << " tile structures taken to the second stage";
    if (c.taken_again)
      out << "; " << c.taken_again << " of their candidates compiled again for the shapes they waited for";
    out << "\n";
  }
  if (!r.dry_run)
    out << "measured: " << c.measurements << " (candidate, shape) pairs: " << c.ok << " ok, " << c.wrong_result
        << " wrong result, " << c.launch_failed << " launch failed; " << c.stopped_early
        << " timings stopped early (could not win)"
        << (r.timing_method == "graphs" ? "; timed as CUDA graphs (GPU time only)" : "");
  if (c.reused) out << "; " << c.reused << " pairs reused from earlier runs with the same fingerprint";
  if (!r.dry_run) out << "\n";
  // Compilations: a candidate taken again is compiled again.
  const std::size_t compilations = c.compiled + c.compile_failed + c.taken_again;
  out << "compile: " << compilations << " kernels in " << format("%.1f", r.compile_wall_seconds) << " s wall with "
      << r.jobs << " jobs ("
      << format("%.1f", r.compile_wall_seconds > 0 ? compilations / r.compile_wall_seconds : 0)
      << " kernels/s, " << format("%.1f", r.compile_cpu_seconds) << " CPU-s)";
  if (!r.dry_run)
    out << "; GPU: " << format("%.1f", r.gpu_seconds) << " s verifying and timing candidates, "
        << format("%.1f", r.cublas_seconds) << " s cuBLAS and set-up";
  out << "; total " << format("%.1f", r.wall_seconds) << " s wall\n";
  print_devices(r, out);
}

}  // namespace

nlohmann::json fingerprint_changes_to_json(const std::vector<FingerprintChange> &changes) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto &c : changes) out.push_back({{"part", c.part}, {"recorded", c.recorded}, {"current", c.current}});
  return out;
}

void print_report(const TuneReport &r, std::ostream &out, std::size_t top) {
  out << "sgemm-tune: space '" << r.space_name << "' for " << r.arch;
  if (r.gpu) {
    out << " on " << r.gpu->name;
    if (r.devices.size() > 1) out << " x" << r.devices.size();
    out << " (" << r.gpu->sm_count << " SMs, driver " << r.gpu->driver_version << ")";
  }
  if (r.dry_run)
    out << ", dry run (nothing timed, nothing recorded)";
  else
    out << ", run " << r.run_id << " in " << r.db_path;
  out << "\n";
  print_counts(r, out);
  if (r.dry_run) return;

  // With several GPUs, the table says which measured each result.
  const bool several = r.devices.size() > 1;
  for (std::size_t shape = 0; shape < r.shapes.size(); ++shape) {
    const ShapeReport &s = r.shapes[shape];
    out << "\n" << s.shape.to_string() << ": cuBLAS " << format("%.3f", s.cublas_ms) << " ms ("
        << format("%.2f", s.cublas_tflops) << " TFLOP/s); again at the end of the run: "
        << format("%.3f", s.cublas_end_ms) << " ms\n";
    print_other_cublas(r, shape, out);
    if (s.ranked.empty()) {
      out << "  no candidate was timed at this shape\n";
      continue;
    }
    out << "  rank   BM   BN  BK   WM   WN WNITER  TM  TN STAGES  PF  SK regs blk/SM  time ms  TFLOP/s  %cuBLAS    error"
        << (several ? "  GPU" : "") << "\n";
    const auto row = [&](const std::string &label, const RankedResult &x) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "  %4s %s %4d %6d %8.3f %8.2f %7.1f%% %8.1e", label.c_str(),
                    tile_columns(x.tile).c_str(), x.registers, x.blocks_per_sm, x.time_ms, x.tflops,
                    x.percent_of_cublas, x.error);
      out << buf;
      // "-": measured by an earlier run under the same fingerprint.
      if (several) out << right_aligned(x.device ? std::to_string(*x.device) : "-", 5);
      out << "\n";
    };
    for (std::size_t i = 0; i < s.ranked.size() && i < top; ++i) row(std::to_string(i + 1), s.ranked[i]);
    for (const auto &[name, tile] : r.references) {
      std::size_t rank = 0;
      for (; rank < s.ranked.size(); ++rank)
        if (s.ranked[rank].tile == tile) break;
      if (rank < s.ranked.size()) {
        out << "  reference '" << name << "' is rank " << rank + 1 << " of " << s.ranked.size() << ":\n";
        row(std::to_string(rank + 1), s.ranked[rank]);
      } else {
        out << "  reference '" << name << "' (" << describe_tile(tile)
            << ") was not timed at this shape: see its row in the database for why\n";
      }
    }
  }
}

nlohmann::json counts_to_json(const TuneCounts &c) {
  return {{"enumerated", c.enumerated},
          {"excluded_by_constraint", c.excluded_by_constraint},
          {"candidates", c.candidates},
          {"invalid", c.invalid},
          {"compiled", c.compiled},
          {"compile_failed", c.compile_failed},
          {"companion_failed", c.companion_failed},
          {"pruned", c.pruned},
          {"pruned_total", c.pruned_total()},
          {"survivors", c.survivors},
          {"measurements", c.measurements},
          {"ok", c.ok},
          {"wrong_result", c.wrong_result},
          {"launch_failed", c.launch_failed},
          {"occupancy_model_mismatches", c.occupancy_model_mismatches},
          {"stopped_early", c.stopped_early},
          {"reused", c.reused},
          {"deferred", c.deferred},
          {"taken_again", c.taken_again}};
}

nlohmann::json report_to_json(const TuneReport &r) {
  using nlohmann::json;
  json j;
  j["schema_version"] = kReportJsonVersion;
  j["space"] = r.space_name;
  j["arch"] = r.arch;
  j["dry_run"] = r.dry_run;
  j["strategy"] = r.strategy;
  j["timing_method"] = r.timing_method;
  j["template_hash"] = r.template_hash;
  j["compile_options"] = r.compile_options;
  if (r.gpu) {
    j["gpu"] = {{"name", r.gpu->name},
                {"compute_capability", r.gpu->compute_capability()},
                {"sm_count", r.gpu->sm_count},
                {"driver_version", r.gpu->driver_version},
                {"runtime_version", r.gpu->runtime_version}};
    j["db"] = r.db_path;
    j["run_id"] = r.run_id;
  } else {
    j["gpu"] = nullptr;
  }
  j["counts"] = counts_to_json(r.counts);
  json survivors = json::array();
  for (const auto &s : r.survivors) {
    json x = tile_to_json(s.tile);
    x["threads"] = s.threads;
    x["registers"] = s.registers;
    x["smem_bytes"] = s.smem_bytes;
    x["blocks_per_sm"] = s.blocks_per_sm;
    x["warps_per_sm"] = s.warps_per_sm;
    x["occupancy_limiter"] = s.limiter;
    survivors.push_back(std::move(x));
  }
  j["survivors"] = std::move(survivors);
  json shapes = json::array();
  for (const auto &s : r.shapes) {
    json results = json::array();
    for (const auto &x : s.ranked) {
      json e = tile_to_json(x.tile);
      e["time_ms"] = x.time_ms;
      e["tflops"] = x.tflops;
      e["percent_of_cublas"] = x.percent_of_cublas;
      e["registers"] = x.registers;
      e["blocks_per_sm"] = x.blocks_per_sm;
      e["error"] = x.error;
      e["device"] = x.device ? nlohmann::json(*x.device) : nlohmann::json(nullptr);
      results.push_back(std::move(e));
    }
    shapes.push_back({{"shape", s.shape.to_string()},
                      {"M", s.shape.M},
                      {"N", s.shape.N},
                      {"K", s.shape.K},
                      {"cublas_ms", s.cublas_ms},
                      {"cublas_tflops", s.cublas_tflops},
                      {"cublas_end_ms", s.cublas_end_ms},
                      {"results", std::move(results)}});
  }
  j["shapes"] = std::move(shapes);
  json devices = json::array();
  for (const DeviceReport &d : r.devices)
    devices.push_back({{"device", d.device},
                       {"pci_bus_id", d.pci_bus_id},
                       {"candidates", d.candidates},
                       {"gpu_seconds", d.gpu_seconds},
                       {"cublas_ms", d.cublas_ms},
                       {"cublas_end_ms", d.cublas_end_ms}});
  j["devices"] = std::move(devices);
  json finalists = json::array();
  for (const auto &t : r.finalists) finalists.push_back(tile_to_json(t));
  j["finalists"] = std::move(finalists);
  j["seconds"] = {{"wall", r.wall_seconds},
                  {"compile_wall", r.compile_wall_seconds},
                  {"compile_cpu", r.compile_cpu_seconds},
                  {"gpu_candidates", r.gpu_seconds},
                  {"gpu_cublas_and_setup", r.cublas_seconds}};
  return j;
}

}  // namespace sgemm_tune
