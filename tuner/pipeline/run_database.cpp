#include "tuner/pipeline/run_database.h"

#include "tuner/pipeline/prior_timings.h"
#include "tuner/version.h"

namespace sgemm_tune {
namespace {

RunProvenance provenance(const TuneOptions &o, const GpuInfo &gpu, const CompileOptions &compile_options) {
  RunProvenance prov;
  prov.command = o.command_line;
  prov.space_name = o.space.name;
  prov.space_source = o.space.source;
  prov.space_hash = o.space.content_hash;
  prov.sm_count = gpu.sm_count;
  prov.clock_mhz = gpu.clock_mhz;
  prov.runtime_version = gpu.runtime_version;
  prov.template_origin = o.kernel.origin;
  prov.fingerprint = Fingerprint{o.kernel.hash,       compile_options.to_string(), nvrtc_version(),
                                 gpu.driver_version, gpu.name,                    gpu.compute_capability(),
                                 kTunerVersion,      timing_method_name(o.space.timing.method)};
  return prov;
}

}  // namespace

RunDatabase::RunDatabase(const TuneOptions &options, const GpuInfo &gpu, const CompileOptions &compile_options)
    : store_(options.db_path) {
  const RunProvenance prov = provenance(options, gpu, compile_options);
  run_id_ = store_.begin_run(prov);
  fingerprint_ = prov.fingerprint.hash();
  for (const PriorResult &p : store_.prior_results(fingerprint_)) prior_.emplace(std::make_pair(p.tile, p.shape), p);
}

void RunDatabase::record(const std::vector<ResultRow> &rows) {
  if (!rows.empty()) store_.record_all(run_id_, rows);
}

void RunDatabase::keep_kernel(const SgemmTile &tile, const std::string &lowered_name, const std::string &cubin) {
  store_.record_kernel(fingerprint_, tile, lowered_name, cubin);
}

const PriorResult *RunDatabase::prior(const SgemmTile &tile, const Shape &shape) const {
  const auto p = prior_.find(std::make_pair(tile, shape));
  return p == prior_.end() ? nullptr : &p->second;
}

std::vector<PriorTiming> RunDatabase::prior_timings(const std::string &gpu_name, const std::vector<Shape> &shapes) {
  return load_prior_timings(store_.database(), gpu_name, shapes);
}

void RunDatabase::finish(bool succeeded, const std::string &counts_json) {
  if (succeeded) {
    store_.finish_run(run_id_, true, counts_json);
    return;
  }
  try {
    store_.finish_run(run_id_, false, counts_json);
  } catch (...) {
    // The run's own error matters more than a failure to mark it.
  }
}

}  // namespace sgemm_tune
