// Per-SM resource limits that decide how many blocks of a kernel can be resident: read
// from the device when there is one, from a built-in table per architecture otherwise
// (the dry run, CI). The table's figures are those of the CUDA occupancy calculator.
#pragma once

#include <string>
#include <vector>

namespace sgemm_tune {

struct SmLimits {
  std::string arch;                  // "sm_90"
  int compute_major = 0, compute_minor = 0;
  int warp_size = 32;
  int max_threads_per_block = 1024;
  int max_threads_per_sm = 2048;
  int max_blocks_per_sm = 32;
  int regs_per_sm = 65536;
  int regs_per_block = 65536;
  int max_regs_per_thread = 255;
  int reg_alloc_unit = 256;          // registers are given to warps in these units
  int sub_partitions = 4;            // each holds a quarter of the register file
  int smem_per_sm = 0;               // bytes usable by blocks on one SM
  int smem_per_block_optin = 0;      // a block's limit after raising it
  int smem_reserved_per_block = 0;   // taken by the driver from every block
  int smem_alloc_unit = 128;
};

// Throws UserError for an architecture not in the table, listing those that are.
SmLimits sm_limits_for_arch(const std::string &arch);
std::vector<std::string> known_archs();

}  // namespace sgemm_tune
