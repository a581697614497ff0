// Recording: a tuning run's provenance and each candidate's result, committed as it
// lands, so that nothing measured is lost when a run stops early.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tuner/common/status.h"
#include "tuner/record/sqlite.h"
#include "tuner/space/shape.h"
#include "tuner/space/tile.h"

namespace sgemm_tune {

// What decides whether a run's timings still describe the kernel and machine in hand.
struct Fingerprint {
  std::string template_hash;
  std::string compile_options;
  std::string nvrtc_version;
  std::string driver_version;
  std::string gpu_name;
  std::string compute_capability;
  std::string tuner_version;
  // "stream" (also written "") or "graphs" (TimingMethod). Hashed only where it is
  // "graphs", so that every fingerprint recorded before runs had a method still holds.
  std::string timing_method = "stream";
  std::string hash() const;
};

struct RunProvenance {
  std::string command;
  std::string space_name, space_source, space_hash;
  int sm_count = 0;
  int clock_mhz = 0;
  std::string runtime_version;
  std::string template_origin;
  Fingerprint fingerprint;
};

struct ResultRow {
  Shape shape;
  SgemmTile tile{};
  CandidateStatus status = CandidateStatus::invalid;
  std::string reason;
  std::string detail;
  std::optional<int> threads, registers, spill_bytes, smem_bytes, blocks_per_sm, runtime_blocks_per_sm, repeats;
  std::optional<double> occupancy, time_ms, tflops, cublas_ms, cublas_tflops, error_beta0, error_beta,
      compile_seconds;
  // The GPU that measured it (GpuInfo::device and pci_bus_id); none for what no GPU measured.
  std::optional<int> device;
  std::string pci_bus_id;
};

// A final result recorded earlier: a later run under the same fingerprint need not
// measure it again.
struct PriorResult {
  Shape shape;
  SgemmTile tile{};
  CandidateStatus status = CandidateStatus::ok;
  double time_ms = 0;
  int registers = 0;
  int blocks_per_sm = 0;
  double error = 0;
};

class ResultStore {
 public:
  // Opens or creates the database and brings its schema up to date. Throws UserError
  // for a path that cannot be written, a corrupt file or a newer schema.
  explicit ResultStore(const std::string &path);

  // Begins a run on this host and process. Runs of this host left 'running' by a process
  // that no longer exists (killed, crashed) are marked 'interrupted' first.
  std::int64_t begin_run(const RunProvenance &run);
  // `counts_json`: the run's counts by outcome (kept with the run: invalid outcomes, for
  // one, are counted but not stored).
  void finish_run(std::int64_t run_id, bool succeeded, const std::string &counts_json = "");
  // The database keeps what cannot be recomputed: an invalid outcome (it follows from the
  // validity rules and the shape) is not stored, nor a pruned outcome that a run under the
  // same fingerprint already stored. Each call is its own transaction.
  void record(std::int64_t run_id, const ResultRow &row);
  // Many rows in one transaction (e.g. the pruned candidates of a space, all at once).
  void record_all(std::int64_t run_id, const std::vector<ResultRow> &rows);
  // Keeps a candidate's machine code under the run's fingerprint (once per fingerprint
  // and tile), for headers that ship exactly what was timed.
  void record_kernel(const std::string &fingerprint, const SgemmTile &tile, const std::string &lowered_name,
                     const std::string &cubin);

  // Results that do not depend on a run's settings (measured, wrong, failed to launch or
  // to compile) recorded under `fingerprint`; the fastest when a pair was measured twice.
  std::vector<PriorResult> prior_results(const std::string &fingerprint);

  Database &database() { return db_; }

 private:
  void insert(std::int64_t run_id, const ResultRow &row);
  void mark_interrupted_runs(const std::string &host);
  Database db_;
};

// Current UTC time, ISO 8601 with seconds.
std::string utc_now();
// 128 random bits in hex: a run's identity across databases.
std::string random_uid();

}  // namespace sgemm_tune
