// A real database holding verified results, built without a GPU: runs recorded through
// ResultStore as a tuning would, with real NVRTC machine code kept for the winners.
#pragma once

#include <filesystem>
#include <string>

#include "tuner/compile/nvrtc_compiler.h"
#include "tuner/emit/header.h"
#include "tuner/query/environment.h"
#include "tuner/record/result_store.h"
#include "tuner/version.h"

namespace sgemm_tune::testing {

inline const SgemmTile kBigTile{128, 256, 32, 128, 32, 1, 8, 8, 2};
inline const SgemmTile kSeedTile{128, 64, 16, 64, 32, 2, 4, 4, 2};

// The environment of an H200 with this build's template and NVRTC.
inline CurrentEnvironment h200_environment(const KernelSource &kernel = KernelSource::embedded()) {
  CurrentEnvironment env;
  env.template_hash = kernel.hash;
  env.nvrtc_version = nvrtc_version();
  env.tuner_version = kTunerVersion;
  env.gpu_name = "NVIDIA H200";
  env.compute_capability = "9.0";
  env.driver_version = "13.0 (580.159.04)";
  return env;
}

inline ResultRow ok_row(const Shape &shape, const SgemmTile &tile, double ms, double cublas_ms) {
  ResultRow r;
  r.shape = shape;
  r.tile = tile;
  r.status = CandidateStatus::ok;
  r.time_ms = ms;
  r.tflops = shape.flops() / (ms * 1e-3) / 1e12;
  r.cublas_ms = cublas_ms;
  r.error_beta0 = 0.0;
  r.error_beta = 0.0;
  r.blocks_per_sm = 4;
  return r;
}

// The provenance of a run of search_spaces/4096.json on an H200 under `fingerprint`.
inline RunProvenance h200_provenance(const Fingerprint &fingerprint) {
  RunProvenance p;
  p.command = "sgemm-tune --space search_spaces/4096.json";
  p.space_name = "4096";
  p.space_source = "search_spaces/4096.json";
  p.space_hash = "0";
  p.sm_count = 132;
  p.clock_mhz = 1980;
  p.runtime_version = "13.0";
  p.template_origin = "embedded";
  p.fingerprint = fingerprint;
  return p;
}

// 4096^3 tuned with kBigTile (the winner, code kept) and the seed tile; 1024^3 with the
// seed tile (no code kept: the header must compile it from source).
inline std::int64_t fill_tuned_database(ResultStore &store, const CurrentEnvironment &env) {
  const RunProvenance p = h200_provenance(env.fingerprint_for(env.gpu_name, env.compute_capability));
  const std::int64_t run = store.begin_run(p);
  const Shape big{4096, 4096, 4096}, small{1024, 1024, 1024};
  store.record(run, ok_row(big, kSeedTile, 3.045, 2.683));
  store.record(run, ok_row(big, kBigTile, 2.744, 2.683));
  store.record(run, ok_row(small, kSeedTile, 0.080, 0.070));
  CompileOptions options;
  options.arch = "sm_90";
  const CompiledKernel k = compile_kernel(KernelSource::embedded(), options, kBigTile);
  store.record_kernel(p.fingerprint.hash(), kBigTile, k.lowered_name, k.cubin);
  store.finish_run(run, true);
  return run;
}

// `shape` tuned with `tile` in a run under another NVRTC: emit cannot compile that code
// again here, so the header it writes compiles the entry from source.
inline void record_under_other_nvrtc(ResultStore &store, const CurrentEnvironment &env, const Shape &shape,
                                     const SgemmTile &tile) {
  Fingerprint other = env.fingerprint_for(env.gpu_name, env.compute_capability);
  other.nvrtc_version = "12.0";
  const std::int64_t run = store.begin_run(h200_provenance(other));
  store.record(run, ok_row(shape, tile, 0.080, 0.070));
  store.finish_run(run, true);
}

// The header `sgemm-tune emit` writes from `store` into `folder`/sgemm_tuned.h, shipping the
// machine code it can compile again with `kernel`.
inline EmittedHeader emit_into(const std::filesystem::path &folder, ResultStore &store, const CurrentEnvironment &env,
                               const KernelSource &kernel) {
  EmitOptions options;
  options.database_label = "tune.db";
  options.kernel = &kernel;
  EmittedHeader header = emit_header(store.database(), env, options);
  write_file_atomically((folder / "sgemm_tuned.h").string(), header.text);
  return header;
}

}  // namespace sgemm_tune::testing
