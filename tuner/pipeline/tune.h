// The tuning pipeline, end to end:
//   enumerate -> validity rules -> prune (before compile) -> NVRTC compile in parallel
//   -> prune (registers, spills, residency) -> verify against cuBLAS -> time -> record
// Compilation runs on worker threads while the GPUs verify and time the candidates already
// compiled, each GPU on a thread of its own taking whichever survivor is next; the calling
// thread judges, hands out and records (the database has one writer). Which survivors are
// timed, and in what order, is the search strategy's to say (tuner/search/). A dry run
// stops before the GPU and writes nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tuner/common/errors.h"
#include "tuner/compile/kernel_source.h"
#include "tuner/gpu/device_info.h"
#include "tuner/pipeline/device_selection.h"
#include "tuner/space/search_space.h"
#include "tuner/space/shard.h"
#include "tuner/time/bench_session.h"

namespace sgemm_tune {

struct TuneOptions {
  SearchSpace space;
  std::vector<Shape> shapes;  // to tune; the space's own unless overridden
  std::string db_path = "sgemm-tune.db";
  int jobs = 1;
  // The GPUs that measure, all of one model: a measurement worker (or, in process, a
  // thread) on each.
  DeviceSelection devices = DeviceSelection::one(0);
  bool dry_run = false;
  std::optional<std::string> arch;  // required for a dry run without a GPU
  KernelSource kernel;
  std::vector<std::string> extra_compile_options;
  std::string command_line;
  // sgemm-tune itself, started as a measurement worker so that a faulting or hanging
  // candidate cannot end the run. Empty: candidates run in this process.
  std::string worker_binary;
  // Only this shard's candidates (tuner/space/shard.h); one shard of one: all of them.
  Shard shard;
};

struct SurvivorInfo {
  SgemmTile tile{};
  int threads = 0;
  int registers = 0;
  int smem_bytes = 0;
  int blocks_per_sm = 0;
  int warps_per_sm = 0;
  std::string limiter;
};

struct RankedResult {
  SgemmTile tile{};
  double time_ms = 0;
  double tflops = 0;
  double percent_of_cublas = 0;
  int registers = 0;
  int blocks_per_sm = 0;
  double error = 0;  // the larger of the two verification errors
  std::optional<int> device;  // the GPU that measured it; none when an earlier run did
};

struct ShapeReport {
  Shape shape;
  double cublas_ms = 0, cublas_tflops = 0;
  double cublas_end_ms = 0;  // cuBLAS again after the candidates: clock drift shows here
  std::vector<RankedResult> ranked;  // fastest first
};

// One GPU of the run, and what it measured.
struct DeviceReport {
  int device = 0;
  std::string pci_bus_id;
  std::size_t candidates = 0;  // survivors it verified and timed (one taken again, each time)
  double gpu_seconds = 0;      // spent on them
  // cuBLAS on this GPU at each shape (in the order of TuneReport::shapes), at the start of
  // the run and at its end: each result is compared with its own GPU's.
  std::vector<double> cublas_ms, cublas_end_ms;
};

struct TuneCounts {
  std::size_t enumerated = 0;
  std::size_t excluded_by_constraint = 0;
  std::size_t candidates = 0;  // after constraints
  std::size_t invalid = 0;     // break a rule, or tile none of the shapes
  std::size_t compiled = 0;
  std::size_t compile_failed = 0;
  // (candidate, shape) pairs of compiled candidates whose shape runs on a companion kernel
  // (an edge kernel, for a BLAS shape) that failed to compile: recorded compile_failed.
  std::size_t companion_failed = 0;
  std::map<std::string, std::size_t> pruned;  // by reason code
  std::size_t survivors = 0;
  std::size_t measurements = 0;  // candidate x shape pairs run on the GPU
  std::size_t ok = 0;
  std::size_t wrong_result = 0;
  std::size_t launch_failed = 0;
  std::size_t occupancy_model_mismatches = 0;
  std::size_t stopped_early = 0;  // measurements cut short: could not win
  // (candidate, shape) pairs already measured under the same fingerprint (an interrupted
  // or earlier run): not measured again.
  std::size_t reused = 0;
  // Survivors a dry run left for a later batch of the search: nothing is timed, so a search
  // that chooses from timings (staged) stops after its first batch and leaves these unjudged.
  std::size_t deferred = 0;
  // Survivors compiled again in this run, for shapes a later batch of the search proposed
  // them at (the staged search's finalists' probes, at the BLAS shapes); counted once above.
  std::size_t taken_again = 0;
  std::size_t pruned_total() const;
};

struct TuneReport {
  std::string space_name;
  std::string arch;
  bool dry_run = false;
  std::optional<GpuInfo> gpu;  // the first of the run's GPUs: they are one model
  std::vector<DeviceReport> devices;
  std::int64_t run_id = 0;
  std::string db_path;
  std::string template_hash;
  std::string compile_options;
  int jobs = 0;
  TuneCounts counts;
  std::vector<SurvivorInfo> survivors;  // in enumeration order
  std::vector<ShapeReport> shapes;
  std::vector<std::pair<std::string, SgemmTile>> references;
  std::string strategy;  // as --strategy spells it
  std::string timing_method;  // as timing.method spells it: "stream" or "graphs"
  std::vector<SgemmTile> finalists;  // staged: the structures taken to the second stage
  double wall_seconds = 0;
  double compile_wall_seconds = 0;  // first compile started to last finished
  double compile_cpu_seconds = 0;   // summed over workers
  double gpu_seconds = 0;           // spent verifying and timing candidates, summed over GPUs
  double cublas_seconds = 0;        // setting up workspaces and timing cuBLAS
};

struct DeviceProgress {
  int device = 0;
  std::size_t timed = 0;  // survivors verified and timed (one taken again, each time)
  double gpu_seconds = 0;
};

struct ProgressUpdate {
  // Candidates through the whole pipeline, one taken again for more shapes counting again.
  // A staged search counts its second stage in `total` only once it starts, so that the
  // estimate of the time left stays honest.
  std::size_t done = 0, total = 0;
  std::string stage;  // "stage 1 of 2" in a staged search, empty otherwise
  std::size_t compiled = 0, pruned = 0, timed = 0, failed = 0;
  double best_tflops = 0, best_percent = 0;
  double elapsed_seconds = 0;
  std::vector<DeviceProgress> devices;  // one per GPU of the run; none in a dry run
};

struct TuneCallbacks {
  std::function<void(const ProgressUpdate &)> progress;
  std::function<void(const std::string &)> message;  // one-line notices (failures, drift)
};

// Thrown out of run_tuning when request_stop() was called: the run is recorded as failed,
// everything measured so far stays in the database, and the same command resumes it. A dry
// run writes no database, so it has nothing to resume and says so.
class TuningInterrupted : public UserError {
 public:
  explicit TuningInterrupted(bool dry_run = false)
      : UserError(dry_run ? "interrupted: a dry run records nothing, so nothing is saved"
                          : "interrupted: results so far are saved; run the same command again to resume") {}
};

// Asks a running tuning to stop after the candidate in hand. Safe in a signal handler.
void request_stop();

TuneReport run_tuning(const TuneOptions &options, const TuneCallbacks &callbacks = {});

}  // namespace sgemm_tune
