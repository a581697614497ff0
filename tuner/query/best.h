// Querying the database: the best verified configuration per GPU and problem shape, and
// whether it is stale, i.e. whether any part of the fingerprint it was measured under
// (template, compile options, NVRTC, driver, GPU, tuner) differs from what is in hand. The
// fingerprint also holds how the run timed (stream or graphs), which is a choice, not a
// part of what is in hand: it keeps the two ways apart but never makes an entry stale.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sgemm_tuned_select.h"
#include "tuner/record/result_store.h"
#include "tuner/space/shape.h"
#include "tuner/space/tile.h"

namespace sgemm_tune {

// What the tuner would measure with now. Parts left empty are unknown here (no GPU: no
// driver version) and are reported as unchecked rather than as changed.
struct CurrentEnvironment {
  std::string template_hash;
  std::string nvrtc_version;
  std::string tuner_version;
  std::vector<std::string> extra_compile_options;
  std::string gpu_name;            // empty without a GPU
  std::string compute_capability;  // of that GPU
  std::string driver_version;
  // The fingerprint a run on `gpu_name` with compute capability `cc` would record.
  Fingerprint fingerprint_for(const std::string &gpu_name, const std::string &cc) const;
};

struct FingerprintChange {
  std::string part, recorded, current;
};

struct BestEntry {
  std::string gpu_name;
  std::string compute_capability;
  Shape shape;
  SgemmTile tile{};
  double time_ms = 0, tflops = 0, cublas_ms = 0, percent_of_cublas = 0;
  int blocks_per_sm = 0;  // of the timed kernel, as the runtime reported it (else the model's); 0: unknown
  // The same tile's result at the shape of most work measured under the same fingerprint on
  // the same GPU (the selection's reference rate: full waves); tflops 0 when there is none.
  Shape rate_shape;
  double rate_tflops = 0;
  std::string measured_at;
  std::int64_t run_id = 0;
  Fingerprint fingerprint;
  std::string fingerprint_hash;
  std::vector<FingerprintChange> changes;  // non-empty: stale
  std::vector<std::string> unchecked;      // parts that could not be compared here
  bool stale() const { return !changes.empty(); }
};

// One entry per (GPU, shape) with a verified result, ordered by GPU name then shape. Of
// the fingerprints a shape was measured under, a current one is preferred (this
// environment's, under either timing method), else any; of those, the newest run's;
// within that fingerprint, the fastest result.
std::vector<BestEntry> best_entries(Database &db, const CurrentEnvironment &env);

// What the selection rule (sgemm_tuned_select.h) knows of an entry.
sgemm_tune_kernels::TunedShape tuned_shape(const BestEntry &e);

// The distinct GPU names with results.
std::vector<std::string> tuned_gpus(Database &db);

}  // namespace sgemm_tune
