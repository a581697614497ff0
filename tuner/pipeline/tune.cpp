#include "tuner/pipeline/tune.h"

#include <algorithm>
#include <chrono>
#include <memory>

#include "tuner/common/errors.h"
#include "tuner/compile/nvrtc_compiler.h"
#include "tuner/gpu/cuda_check.h"
#include "tuner/pipeline/compile_pool.h"
#include "tuner/prune/prune.h"
#include "tuner/record/result_store.h"
#include "tuner/space/enumerate.h"
#include "tuner/version.h"

namespace sgemm_tune {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The code of a result whose tile does not divide the problem shape.
constexpr const char *kShapeNotTiled = "shape_not_tiled";

ResultRow make_row(const Shape &shape, const SgemmTile &tile, CandidateStatus status, std::string reason,
                   std::string detail) {
  ResultRow row;
  row.shape = shape;
  row.tile = tile;
  row.status = status;
  row.reason = std::move(reason);
  row.detail = std::move(detail);
  row.threads = sgemm_tune_kernels::tile_threads(tile);
  return row;
}

std::string first_line(const std::string &text) { return text.substr(0, text.find('\n')); }

// The first lines of NVRTC's log that say what went wrong.
std::string log_excerpt(const std::string &log, std::size_t lines = 3) {
  std::string out;
  std::size_t pos = 0;
  while (lines > 0 && pos < log.size()) {
    const std::size_t end = log.find('\n', pos);
    const std::string line = log.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (line.find("error") != std::string::npos) {
      out += (out.empty() ? "" : " | ") + line;
      --lines;
    }
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return out.empty() ? first_line(log) : out;
}

struct Resolved {
  SmLimits limits;
  std::optional<GpuInfo> gpu;
};

Resolved resolve_target(const TuneOptions &o) {
  Resolved r;
  if (!o.dry_run) {
    r.gpu = open_gpu(o.device);
    r.limits = sm_limits_from_device(o.device);
    if (o.arch && *o.arch != r.gpu->arch())
      throw UserError("--arch " + *o.arch + " does not match GPU " + std::to_string(o.device) + " (" + r.gpu->name +
                      ", " + r.gpu->arch() + "); --arch other than the GPU's is only for --dry-run");
    return r;
  }
  if (o.arch) {
    r.limits = sm_limits_for_arch(*o.arch);
    return r;
  }
  std::string why;
  if (gpu_count(&why) > o.device) {
    r.limits = sm_limits_from_device(o.device);
    return r;
  }
  std::string known;
  for (const auto &a : known_archs()) known += (known.empty() ? "" : ", ") + a;
  throw UserError("--dry-run with no GPU needs --arch to say what to compile for (one of: " + known + ")");
}

}  // namespace

std::size_t TuneCounts::pruned_total() const {
  std::size_t n = 0;
  for (const auto &[reason, count] : pruned) n += count;
  return n;
}

TuneReport run_tuning(const TuneOptions &o, const TuneCallbacks &cb) {
  const auto start = Clock::now();
  const auto say = [&](const std::string &m) {
    if (cb.message) cb.message(m);
  };
  if (o.shapes.empty())
    throw UserError(o.space.source + ": no problem shapes to tune (add \"shapes\" to the space or pass --shape)");
  if (o.jobs < 1) throw UserError("--jobs must be at least 1");

  const Resolved target = resolve_target(o);
  CompileOptions compile_options;
  compile_options.arch = target.limits.arch;
  compile_options.extra = o.extra_compile_options;

  TuneReport report;
  report.space_name = o.space.name;
  report.arch = target.limits.arch;
  report.dry_run = o.dry_run;
  report.gpu = target.gpu;
  report.db_path = o.dry_run ? "" : o.db_path;
  report.template_hash = o.kernel.hash;
  report.compile_options = compile_options.to_string();
  report.jobs = o.jobs;
  report.references = o.space.references;
  TuneCounts &counts = report.counts;

  // Enumerate and judge what needs no compiler.
  const Enumeration en = enumerate_candidates(o.space);
  counts.enumerated = en.enumerated;
  counts.excluded_by_constraint = en.excluded_by_constraint;
  counts.candidates = en.candidates.size();

  std::vector<ResultRow> early_rows;  // decided before compiling: recorded in one go
  std::vector<SgemmTile> to_compile;
  std::size_t done = 0;
  for (const SgemmTile &tile : en.candidates) {
    const TileRule rule = sgemm_tune_kernels::check_tile(tile);
    if (rule != TileRule::ok) {
      ++counts.invalid;
      ++done;
      for (const Shape &s : o.shapes)
        early_rows.push_back(make_row(s, tile, CandidateStatus::invalid, std::string(tile_rule_code(rule)),
                                      sgemm_tune_kernels::tile_rule_text(rule)));
      continue;
    }
    bool fits_any = false;
    for (const Shape &s : o.shapes) {
      if (sgemm_tune_kernels::shape_fits_tile(tile, s.M, s.N, s.K))
        fits_any = true;
      else
        early_rows.push_back(make_row(s, tile, CandidateStatus::invalid, kShapeNotTiled,
                                      "the shape is not a whole number of " + std::to_string(tile.BM) + "x" +
                                          std::to_string(tile.BN) + "x" + std::to_string(tile.BK) + " tiles"));
    }
    if (!fits_any) {
      ++counts.invalid;
      ++done;
      continue;
    }
    const PruneVerdict early = prune_before_compile(tile, o.space.prune, target.limits);
    if (early.pruned) {
      ++counts.pruned[early.reason];
      ++done;
      for (const Shape &s : o.shapes)
        if (sgemm_tune_kernels::shape_fits_tile(tile, s.M, s.N, s.K)) {
          ResultRow row = make_row(s, tile, CandidateStatus::pruned, early.reason, early.detail);
          row.smem_bytes = sgemm_tune_kernels::tile_smem_bytes(tile);
          early_rows.push_back(std::move(row));
        }
      continue;
    }
    to_compile.push_back(tile);
  }

  // The database is opened before any GPU work, so that a bad path fails at once.
  std::unique_ptr<ResultStore> store;
  std::int64_t run_id = 0;
  if (!o.dry_run) {
    store = std::make_unique<ResultStore>(o.db_path);
    RunProvenance prov;
    prov.command = o.command_line;
    prov.space_name = o.space.name;
    prov.space_source = o.space.source;
    prov.space_hash = o.space.content_hash;
    prov.sm_count = target.gpu->sm_count;
    prov.clock_mhz = target.gpu->clock_mhz;
    prov.runtime_version = target.gpu->runtime_version;
    prov.template_origin = o.kernel.origin;
    prov.fingerprint = Fingerprint{o.kernel.hash,          compile_options.to_string(), nvrtc_version(),
                                   target.gpu->driver_version, target.gpu->name, target.gpu->compute_capability(),
                                   kTunerVersion};
    run_id = store->begin_run(prov);
    report.run_id = run_id;
    store->record_all(run_id, early_rows);
  }

  ProgressUpdate progress;
  progress.total = counts.candidates;
  progress.done = done;
  progress.pruned = counts.pruned_total();
  const auto publish = [&] {
    progress.elapsed_seconds = seconds_since(start);
    if (cb.progress) cb.progress(progress);
  };
  publish();

  try {
    const auto compile_start = Clock::now();
    CompilePool pool(o.kernel, compile_options, to_compile, o.jobs);
    std::unique_ptr<BenchSession> bench;
    if (!o.dry_run) {
      const auto t = Clock::now();
      const auto seed = static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
      bench = std::make_unique<BenchSession>(*target.gpu, o.shapes, o.space.timing, o.space.verify, seed);
      report.cublas_seconds += seconds_since(t);
      for (const auto &b : bench->baselines())
        report.shapes.push_back(ShapeReport{b.shape, b.cublas.median_ms, b.cublas_tflops, 0, {}});
    }

    double compile_end = 0;
    while (auto outcome = pool.next()) {
      const SgemmTile &tile = outcome->tile;
      report.compile_cpu_seconds += outcome->seconds;
      compile_end = seconds_since(compile_start);
      std::vector<std::size_t> fitting;
      for (std::size_t i = 0; i < o.shapes.size(); ++i)
        if (sgemm_tune_kernels::shape_fits_tile(tile, o.shapes[i].M, o.shapes[i].N, o.shapes[i].K)) fitting.push_back(i);
      std::vector<ResultRow> rows;

      if (!outcome->kernel) {
        ++counts.compile_failed;
        ++progress.failed;
        say("compile failed: " + describe_tile(tile) + ": " + log_excerpt(outcome->log.empty() ? outcome->error : outcome->log));
        for (std::size_t i : fitting) {
          ResultRow row = make_row(o.shapes[i], tile, CandidateStatus::compile_failed, "nvrtc", outcome->error);
          if (!outcome->log.empty()) row.detail += "\n" + outcome->log;
          row.compile_seconds = outcome->seconds;
          rows.push_back(std::move(row));
        }
      } else {
        ++counts.compiled;
        ++progress.compiled;
        const CompiledKernel &kernel = *outcome->kernel;
        const ResourceUsage &usage = kernel.usage;
        const Occupancy occ =
            predict_occupancy(target.limits, tile_resources(tile, usage.registers, usage.static_smem_bytes));
        const PruneVerdict verdict = prune_after_compile(tile, usage, occ, o.space.prune);
        const auto fill = [&](ResultRow &row) {
          row.registers = usage.registers;
          row.spill_bytes = usage.spill_store_bytes + usage.spill_load_bytes;
          row.smem_bytes = sgemm_tune_kernels::tile_smem_bytes(tile) + usage.static_smem_bytes;
          row.blocks_per_sm = occ.blocks_per_sm;
          row.occupancy = occ.fraction;
          row.compile_seconds = outcome->seconds;
        };
        if (verdict.pruned) {
          ++counts.pruned[verdict.reason];
          ++progress.pruned;
          for (std::size_t i : fitting) {
            rows.push_back(make_row(o.shapes[i], tile, CandidateStatus::pruned, verdict.reason, verdict.detail));
            fill(rows.back());
          }
        } else {
          ++counts.survivors;
          report.survivors.push_back(SurvivorInfo{tile, sgemm_tune_kernels::tile_threads(tile), usage.registers,
                                                  sgemm_tune_kernels::tile_smem_bytes(tile) + usage.static_smem_bytes,
                                                  occ.blocks_per_sm, occ.warps_per_sm,
                                                  std::string(to_string(occ.limiter))});
          if (bench) {
            const auto gpu_start = Clock::now();
            std::optional<CandidateKernel> loaded;
            std::optional<int> runtime_blocks;
            std::string load_error;
            try {
              loaded.emplace(kernel);
            } catch (const CudaError &e) {
              if (e.sticky()) throw;
              load_error = e.what();
            }
            if (loaded) {
              // Only a cross-check of the model: its failure must not cost the candidate.
              try {
                runtime_blocks = loaded->runtime_blocks_per_sm();
              } catch (const CudaError &e) {
                if (e.sticky()) throw;
                say("cannot ask the runtime for the occupancy of " + describe_tile(tile) + ": " + e.what());
              }
            }
            if (runtime_blocks && *runtime_blocks != occ.blocks_per_sm) {
              ++counts.occupancy_model_mismatches;
              say("occupancy model predicted " + std::to_string(occ.blocks_per_sm) + " blocks/SM, the runtime says " +
                  std::to_string(*runtime_blocks) + ": " + describe_tile(tile));
            }
            for (std::size_t i : fitting) {
              ResultRow row = make_row(o.shapes[i], tile, CandidateStatus::ok, "", "");
              fill(row);
              row.runtime_blocks_per_sm = runtime_blocks;
              const ShapeBaseline &base = bench->baselines()[i];
              row.cublas_ms = base.cublas.median_ms;
              row.cublas_tflops = base.cublas_tflops;
              ++counts.measurements;
              if (!loaded) {
                row.status = CandidateStatus::launch_failed;
                row.reason = "load";
                row.detail = load_error;
                ++counts.launch_failed;
                rows.push_back(std::move(row));
                continue;
              }
              Measurement m;
              try {
                m = bench->measure(*loaded, i);
              } catch (const CudaError &e) {
                // The context is gone: record what happened to this candidate, then stop.
                row.status = CandidateStatus::launch_failed;
                row.reason = cudaGetErrorName(e.code());
                row.detail = e.what();
                store->record(run_id, row);
                throw;
              }
              row.status = m.status;
              row.reason = m.reason;
              row.detail = m.detail;
              if (m.verification) {
                row.error_beta0 = m.verification->error_beta0;
                row.error_beta = m.verification->error_beta;
              }
              if (m.status == CandidateStatus::ok) {
                ++counts.ok;
                row.time_ms = m.timing->median_ms;
                row.tflops = m.tflops;
                RankedResult r{tile, m.timing->median_ms, m.tflops, 100.0 * base.cublas.median_ms / m.timing->median_ms,
                               usage.registers, occ.blocks_per_sm,
                               std::max(m.verification->error_beta0, m.verification->error_beta)};
                report.shapes[i].ranked.push_back(r);
                if (r.percent_of_cublas > progress.best_percent) {
                  progress.best_percent = r.percent_of_cublas;
                  progress.best_tflops = r.tflops;
                }
              } else if (m.status == CandidateStatus::wrong_result) {
                ++counts.wrong_result;
                say("wrong result: " + describe_tile(tile) + " at " + o.shapes[i].to_string() + ": " + m.detail);
              } else {
                ++counts.launch_failed;
                say("launch failed: " + describe_tile(tile) + " at " + o.shapes[i].to_string() + ": " + m.detail);
              }
              rows.push_back(std::move(row));
            }
            ++progress.timed;
            report.gpu_seconds += seconds_since(gpu_start);
          }
        }
      }
      if (store && !rows.empty()) store->record_all(run_id, rows);
      ++progress.done;
      publish();
    }
    report.compile_wall_seconds = compile_end;

    if (bench) {
      const auto t = Clock::now();
      for (std::size_t i = 0; i < report.shapes.size(); ++i) {
        report.shapes[i].cublas_end_ms = bench->time_cublas(i).median_ms;
        auto &ranked = report.shapes[i].ranked;
        std::sort(ranked.begin(), ranked.end(), [](const RankedResult &a, const RankedResult &b) {
          return a.time_ms != b.time_ms ? a.time_ms < b.time_ms : a.tile < b.tile;
        });
      }
      report.cublas_seconds += seconds_since(t);
    }
    std::sort(report.survivors.begin(), report.survivors.end(),
              [](const SurvivorInfo &a, const SurvivorInfo &b) { return a.tile < b.tile; });
    if (store) store->finish_run(run_id, true);
  } catch (...) {
    if (store) {
      try {
        store->finish_run(run_id, false);
      } catch (...) {
        // The original error matters more than a failure to mark the run.
      }
    }
    throw;
  }
  report.wall_seconds = seconds_since(start);
  return report;
}

}  // namespace sgemm_tune
