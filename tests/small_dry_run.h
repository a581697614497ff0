// A dry run of tests/data/small.json for sm_90 with two compile jobs: the pipeline up to
// timing, with no GPU, on a space small enough for a test.
#pragma once

#include "test_paths.h"

#include "tuner/pipeline/tune.h"

namespace sgemm_tune::testing {

inline TuneOptions small_dry_run() {
  TuneOptions o;
  o.space = load_search_space(source_dir() + "/tests/data/small.json");
  o.shapes = o.space.shapes;
  o.dry_run = true;
  o.arch = "sm_90";
  o.jobs = 2;
  o.kernel = KernelSource::embedded();
  return o;
}

}  // namespace sgemm_tune::testing
