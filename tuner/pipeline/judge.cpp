#include "tuner/pipeline/judge.h"

namespace sgemm_tune {
namespace {

std::string first_line(const std::string &text) { return text.substr(0, text.find('\n')); }

// The resources of the kernel that runs `shape` (a BLAS shape's may be a body of an edge
// kernel or of the kernel of any operands).
const ResourceUsage &serving_usage(const CompiledKernel &kernel, const Shape &shape) {
  const KernelVariant variant = serving_kernel(kernel.tile, shape);
  for (const CompanionKernel &c : kernel.companions)
    if (c.variant == variant) return c.body_usage[serving_body(kernel.tile, shape)];
  return kernel.usage;
}

// Why the kernel that runs `shape` is missing: a companion NVRTC refused; null when it is there.
const CompanionFailure *serving_failure(const CompiledKernel &kernel, const Shape &shape) {
  const KernelVariant variant = serving_kernel(kernel.tile, shape);
  for (const CompanionFailure &f : kernel.companion_failures)
    if (f.variant == variant) return &f;
  return nullptr;
}

}  // namespace

ResultRow result_row(const Shape &shape, const SgemmTile &tile, CandidateStatus status, std::string reason,
                     std::string detail) {
  ResultRow r;
  r.shape = shape;
  r.tile = tile;
  r.status = status;
  r.reason = std::move(reason);
  r.detail = std::move(detail);
  r.threads = sgemm_tune_kernels::tile_threads(tile);
  return r;
}

ResultRow compile_failed_row(const Shape &shape, const SgemmTile &tile, const std::string &error,
                             const std::string &log, std::optional<double> compile_seconds) {
  ResultRow row = result_row(shape, tile, CandidateStatus::compile_failed, "nvrtc", error);
  if (!log.empty()) row.detail += "\n" + log;
  row.compile_seconds = compile_seconds;
  return row;
}

void take_outcome(ResultRow &row, const Measurement &m) {
  row.status = m.status;
  row.reason = m.reason;
  row.detail = m.detail;
  if (m.verification) {
    row.error_beta0 = m.verification->error_beta0;
    row.error_beta = m.verification->error_beta;
  }
}

std::vector<CompanionRequest> companions_for(const SgemmTile &tile, const std::vector<Shape> &shapes,
                                             const std::function<bool(const Shape &)> &measured_before) {
  EdgeBodies edges = 0, any = 0;
  for (const Shape &s : shapes) {
    if (!tile_serves_shape(tile, s) || (measured_before && measured_before(s))) continue;
    const KernelVariant v = serving_kernel(tile, s);
    if (v == KernelVariant::edges) edges |= edge_body_bit(serving_body(tile, s));
    if (v == KernelVariant::any) any |= edge_body_bit(serving_body(tile, s));
  }
  std::vector<CompanionRequest> out;
  if (edges) out.push_back({KernelVariant::edges, edges});
  if (any) out.push_back({KernelVariant::any, any});
  return out;
}

Judgement judge_before_compile(const SgemmTile &tile, const std::vector<Shape> &shapes, const PruneSettings &prune,
                               const SmLimits &limits) {
  Judgement j;
  const TileRule rule = sgemm_tune_kernels::check_tile(tile);
  if (rule != TileRule::ok) {
    j.verdict = Judgement::Verdict::invalid;
    for (const Shape &s : shapes)
      j.rows.push_back(result_row(s, tile, CandidateStatus::invalid, std::string(tile_rule_code(rule)),
                                  sgemm_tune_kernels::tile_rule_text(rule)));
    return j;
  }
  bool tiles_any = false;
  for (const Shape &s : shapes) {
    if (tile_serves_shape(tile, s)) {
      tiles_any = true;
      continue;
    }
    j.rows.push_back(result_row(s, tile, CandidateStatus::invalid, kShapeNotTiled,
                                s.blas ? "the tile's edge kernel cannot reach every element of the shape"
                                       : "the shape is not a whole number of " + std::to_string(tile.BM) + "x" +
                                             std::to_string(tile.BN) + "x" + std::to_string(tile.BK) + " tiles"));
  }
  if (!tiles_any) {
    j.verdict = Judgement::Verdict::invalid;
    return j;
  }
  const PruneVerdict early = prune_before_compile(tile, prune, limits);
  if (early.pruned) {
    j.verdict = Judgement::Verdict::pruned;
    j.reason = early.reason;
    for (const Shape &s : shapes) {
      if (!tile_serves_shape(tile, s)) continue;
      j.rows.push_back(result_row(s, tile, CandidateStatus::pruned, early.reason, early.detail));
      j.rows.back().smem_bytes = sgemm_tune_kernels::tile_smem_bytes(tile);
    }
  }
  return j;
}

CompiledJudgement judge_compiled(const CompiledKernel &kernel, double compile_seconds, const std::vector<Shape> &shapes,
                                 const PruneSettings &prune, const SmLimits &limits,
                                 const std::function<bool(const Shape &)> &measured_before) {
  const SgemmTile &tile = kernel.tile;
  const ResourceUsage &usage = kernel.usage;
  const int smem_bytes = sgemm_tune_kernels::tile_smem_bytes(tile) + usage.static_smem_bytes;
  CompiledJudgement j;
  j.occupancy = predict_occupancy(limits, tile_resources(tile, usage.registers, usage.static_smem_bytes));
  j.verdict = prune_after_compile(tile, usage, j.occupancy, prune);
  for (const Shape &s : shapes) {
    if (!tile_serves_shape(tile, s) || measured_before(s)) continue;
    if (const CompanionFailure *failed = serving_failure(kernel, s)) {
      j.rows.push_back(compile_failed_row(s, tile, failed->error, failed->log, compile_seconds));
      continue;
    }
    j.rows.push_back(result_row(s, tile, j.verdict.pruned ? CandidateStatus::pruned : CandidateStatus::ok,
                                j.verdict.reason, j.verdict.detail));
    ResultRow &r = j.rows.back();
    // Registers and spills are those of the kernel (the body) that runs the shape; the
    // residency, the occupancy and the pruning stay the fast kernel's: the tile as the
    // header ships it.
    const ResourceUsage &used = serving_usage(kernel, s);
    r.registers = used.registers;
    r.spill_bytes = used.spill_store_bytes + used.spill_load_bytes;
    r.smem_bytes = smem_bytes;
    r.blocks_per_sm = j.occupancy.blocks_per_sm;
    r.occupancy = j.occupancy.fraction;
    r.compile_seconds = compile_seconds;
  }
  j.survivor = SurvivorInfo{tile,
                            sgemm_tune_kernels::tile_threads(tile),
                            usage.registers,
                            smem_bytes,
                            j.occupancy.blocks_per_sm,
                            j.occupancy.warps_per_sm,
                            std::string(to_string(j.occupancy.limiter))};
  return j;
}

std::vector<ResultRow> compile_failure_rows(const CompileOutcome &outcome, const std::vector<Shape> &shapes) {
  std::vector<ResultRow> rows;
  for (const Shape &s : shapes) {
    if (!tile_serves_shape(outcome.tile, s)) continue;
    rows.push_back(compile_failed_row(s, outcome.tile, outcome.error, outcome.log, outcome.seconds));
  }
  return rows;
}

std::string log_excerpt(const std::string &log, std::size_t lines) {
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

}  // namespace sgemm_tune
