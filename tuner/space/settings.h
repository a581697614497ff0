// Settings a search space file carries besides its parameters and shapes. Defaults are
// what a file that omits the section gets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tuner/space/constraint.h"

namespace sgemm_tune {

// How a candidate's time is taken. Both rotate over the same operand sets.
//   stream: launches back to back from the host, an event between each: what a program
//     calling the product in a loop sees, the host's time per launch included wherever it
//     exceeds the kernel's (a few microseconds: the small shapes).
//   graphs: one launch per operand set captured once into a CUDA graph, each replay timed
//     between its own two events: the GPU's time alone, as a program that replays its
//     products in a graph sees. A run records its method; results taken the two ways are
//     never ranked together (the method is part of the run's fingerprint).
enum class TimingMethod { stream, graphs };

// "stream" or "graphs", as space files spell them; nullopt for another name.
std::optional<TimingMethod> timing_method(const std::string &name);
const char *timing_method_name(TimingMethod method);

struct TimingSettings {
  TimingMethod method = TimingMethod::stream;
  // Untimed launches before timing. Verification has already run the kernel twice, so
  // one is enough to settle clocks and caches.
  int warmup = 1;
  // Timed launches; the median is reported. With graphs, whole replays of one launch per
  // operand set are timed, each figure the mean of its launches: repeats / sets rounded
  // up, at least 5 replays (so up to 64 x 5 launches where a shape's operands are small,
  // against `repeats` back to back), and an untimed replay before each batch.
  int repeats = 15;
  double min_working_set_mib = 0;  // 0: twice the GPU's L2, so that timing reads DRAM
  // A candidate whose first `early_stop_after` launches (with graphs: replays) are slower
  // than the best so far by more than `early_stop_margin` cannot win: it is recorded from
  // those.
  int early_stop_after = 3;        // 0 turns early stopping off
  double early_stop_margin = 0.10;
  // A candidate still running after this long is stopped and recorded as launch_failed
  // (reason "timeout"). 0: a hundred times what cuBLAS would take, at least 30 s.
  double timeout_seconds = 0;
};

struct VerifySettings {
  double tolerance = 1e-4;  // max ||C - C_cublas||_F / ||C_cublas||_F
  double beta = 0.5;        // the beta != 0 check also runs with this beta
};

struct PruneSettings {
  bool allow_spills = false;   // keep candidates whose registers spill to local memory
  int min_blocks_per_sm = 1;   // blocks that must fit on one SM at once
  // Resident warps per SM needed to hide latency. On the H200 no candidate of the 4096
  // space with fewer than 8 came within 35% of the best (bench/results/2026-11-30-h200-full-space).
  int min_warps_per_sm = 8;
  // Floats a thread must keep live (accumulators, fragments, prefetch): above this the
  // candidate cannot fit in 255 registers without spilling, so it is not even compiled.
  int max_live_floats = 240;
};

// How the space is searched.
//   exhaustive: every candidate that survives pruning is timed.
//   staged: first only the candidates whose `probe` parameters have the probe values
//     (e.g. BK = 16, STAGES = 2), which ranks the tile structures, each at each shape by
//     its best probe where a parameter is probed at several values (STREAMK 0 and 1: with
//     stream-K a small shape's fastest probes sit within 0.2 us of the floor its second
//     launch sets, without it a mid-sized shape's few tiles leave SMs idle); then the best
//     `finalists` structures (by mean percent of cuBLAS over the shapes) with every value
//     of the probe parameters, and besides them each shape's own best
//     `finalists_per_shape`, so that a shape unlike the rest (a small one among large ones)
//     keeps the structures that suit it. The rest are recorded as pruned, reason
//     "not_finalist". Unless `blas_shapes_in_first_stage`, the first stage times its probes
//     at the plain shapes only (where every probe tiles one) and ranks on those, each plain
//     shape keeping its own `finalists_per_shape`; the finalists' probes come back in the
//     second stage for the BLAS shapes. `blas_probes` names probes that time the BLAS
//     shapes in the first stage as well, so that each BLAS shape keeps its own
//     `finalists_per_shape` among them.
//   random: survivors in an order drawn from `seed`.
//   genetic: generations of children of the fastest tiles so far (crossover, mutation to
//     a neighbouring value), from a random first generation.
//   model: ranks the survivors not yet timed by what the timings so far predict for them
//     (this run's, and those the database holds for other shapes, GPUs or fingerprints),
//     and times the most promising first.
// The last three stop after `budget` candidates have been timed (0: when every survivor
// has been); survivors they did not propose are recorded as pruned, reason "not_proposed".
struct StrategySettings {
  enum class Kind { exhaustive, staged, random, genetic, model } kind = Kind::exhaustive;
  // (parameter index, value); a parameter probed at several values appears once for each,
  // and a structure is then ranked at each shape by the best of its probes.
  std::vector<std::pair<std::size_t, int>> probe;
  int finalists = 24;
  int finalists_per_shape = 0;
  // Staged: whether the first stage times the BLAS shapes too. By default it times the
  // plain shapes only and the finalists are timed at the BLAS shapes as well: a BLAS shape
  // needs an edge kernel compiled beside the fast kernel, several times its compile time.
  bool blas_shapes_in_first_stage = false;
  // Staged, where the BLAS shapes wait: the probes this holds for time them in the first
  // stage too, and each BLAS shape keeps its own `finalists_per_shape` among those probes
  // (the mean the finalists are ranked by stays over the plain shapes). For the structures
  // that run a BLAS shape's edge kernel well but rank low on the plain shapes' fast kernel
  // (64 x 64 tiles of 4 warps at medium products): timing every probe there would compile
  // every probe's edge kernel, about ten times a fast kernel's compile.
  std::optional<Constraint> blas_probes;
  std::size_t budget = 0;   // candidates timed; 0: no limit
  std::uint64_t seed = 1;   // random, genetic and model: the same seed, the same proposals
};

// "exhaustive", "staged", ... as space files and --strategy spell them; nullopt for another name.
std::optional<StrategySettings::Kind> strategy_kind(const std::string &name);
std::string strategy_name(StrategySettings::Kind kind);

}  // namespace sgemm_tune
