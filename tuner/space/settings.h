// Settings a search space file carries besides its parameters and shapes. Defaults are
// what a file that omits the section gets.
#pragma once

namespace sgemm_tune {

struct TimingSettings {
  int warmup = 3;             // untimed launches before timing
  int repeats = 15;           // timed launches; the median is reported
  double min_working_set_mib = 0;  // 0: twice the GPU's L2, so that timing reads DRAM
};

struct VerifySettings {
  double tolerance = 1e-4;  // max ||C - C_cublas||_F / ||C_cublas||_F
  double beta = 0.5;        // the beta != 0 check also runs with this beta
};

struct PruneSettings {
  bool allow_spills = false;   // keep candidates whose registers spill to local memory
  int min_blocks_per_sm = 1;   // blocks that must fit on one SM at once
  int min_warps_per_sm = 4;    // resident warps per SM needed to hide latency
  // Floats a thread must keep live (accumulators, fragments, prefetch): above this the
  // candidate cannot fit in 255 registers without spilling, so it is not even compiled.
  int max_live_floats = 240;
};

}  // namespace sgemm_tune
