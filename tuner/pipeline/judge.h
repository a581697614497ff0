// What a run decides about a candidate without the GPU, and the result rows that record
// it: before compiling, from the validity rules, the shapes and the tile alone; after
// compiling, from the registers, spills and shared memory the compiler reported.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tuner/pipeline/compile_pool.h"
#include "tuner/pipeline/tune.h"
#include "tuner/prune/prune.h"
#include "tuner/record/result_store.h"
#include "tuner/time/bench_session.h"
#include "tuner/time/shape_route.h"

namespace sgemm_tune {

// A result row with the fields every row has.
ResultRow result_row(const Shape &shape, const SgemmTile &tile, CandidateStatus status, std::string reason,
                     std::string detail);

// The row of a shape whose kernel NVRTC refused: `error` one line, `log` all it said;
// `compile_seconds` none where nothing was compiled for it in this run.
ResultRow compile_failed_row(const Shape &shape, const SgemmTile &tile, const std::string &error,
                             const std::string &log = {}, std::optional<double> compile_seconds = std::nullopt);

// A measurement's disposition and verification errors, into the row that records it.
void take_outcome(ResultRow &row, const Measurement &m);

// The edge kernels of `tile` that run some of `shapes` (serving_kernel: only a BLAS shape's
// may), each with just the bodies those shapes run (serving_body), to compile beside its
// fast kernel (compile_companions); only for the shapes `measured_before` does not answer
// for, where given: a resumed run measures no others (judge_compiled), so an edge kernel
// or body that runs only those is not compiled again.
std::vector<CompanionRequest> companions_for(const SgemmTile &tile, const std::vector<Shape> &shapes,
                                             const std::function<bool(const Shape &)> &measured_before = nullptr);

struct Judgement {
  enum class Verdict { survives, invalid, pruned } verdict = Verdict::survives;
  std::string reason;            // when pruned
  std::vector<ResultRow> rows;   // to record; a survivor has one for each shape it does not tile
};

// Validity, tiling of the shapes, and what the tile alone says about residency.
Judgement judge_before_compile(const SgemmTile &tile, const std::vector<Shape> &shapes, const PruneSettings &prune,
                               const SmLimits &limits);

struct CompiledJudgement {
  PruneVerdict verdict;
  Occupancy occupancy;
  SurvivorInfo survivor;  // what the report lists, when not pruned
  // One per shape the tile tiles and that `measured_before` does not exclude: pruned, or
  // ok until the GPU says otherwise; compile_failed where the kernel that would run it is a
  // companion that failed to compile (kernel.companion_failures).
  std::vector<ResultRow> rows;
};

CompiledJudgement judge_compiled(const CompiledKernel &kernel, double compile_seconds, const std::vector<Shape> &shapes,
                                 const PruneSettings &prune, const SmLimits &limits,
                                 const std::function<bool(const Shape &)> &measured_before);

// The rows of a candidate NVRTC refused, at each shape it tiles.
std::vector<ResultRow> compile_failure_rows(const CompileOutcome &outcome, const std::vector<Shape> &shapes);

// The first lines of NVRTC's log that say what went wrong.
std::string log_excerpt(const std::string &log, std::size_t lines = 3);

}  // namespace sgemm_tune
