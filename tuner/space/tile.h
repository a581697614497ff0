// The tuner's view of a tile configuration: the kernel's own SgemmTile, addressed by
// parameter name, plus the quantities derived from it that constraints and reports use.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "sgemm_tile_rules.h"

namespace sgemm_tune {

using sgemm_tune_kernels::SgemmTile;
using sgemm_tune_kernels::TileRule;

// The search space's parameters, in the kernel template's argument order.
inline constexpr std::array<std::string_view, 11> kTileParameters = {
    "BM", "BN", "BK", "WM", "WN", "WNITER", "TM", "TN", "STAGES", "PREFETCH", "STREAMK"};

// The parameters from this index on are switches (0 or 1) that a space file or reference
// may leave out, meaning 0: the seed's kernel, and every file written before they existed.
inline constexpr std::size_t kFirstSwitchParameter = 9;

// The smallest value a parameter may take: 1 for sizes, 0 for switches.
constexpr int tile_parameter_min(std::size_t index) { return index >= kFirstSwitchParameter ? 0 : 1; }

int tile_parameter(const SgemmTile &tile, std::size_t index);
void set_tile_parameter(SgemmTile &tile, std::size_t index, int value);

// Value of a parameter or derived quantity by name; nullopt for an unknown name.
std::optional<long long> tile_quantity(const SgemmTile &tile, std::string_view name);

// "BM=128 BN=64 BK=16 WM=64 WN=32 WNITER=2 TM=4 TN=4 STAGES=2 PREFETCH=0 STREAMK=0"
std::string describe_tile(const SgemmTile &tile);

// The template arguments as written in a name expression: "128,64,16,64,32,2,4,4,2,0,0".
std::string tile_arguments(const SgemmTile &tile);

// A stable identifier for each validity rule, recorded as the reason of invalid results.
std::string_view tile_rule_code(TileRule rule);

}  // namespace sgemm_tune

// In the kernel's namespace, so that argument-dependent lookup (std::find, std::sort)
// finds them; the kernel header itself stays free of host-only code.
namespace sgemm_tune_kernels {
bool operator==(const SgemmTile &a, const SgemmTile &b);
bool operator!=(const SgemmTile &a, const SgemmTile &b);
bool operator<(const SgemmTile &a, const SgemmTile &b);
}  // namespace sgemm_tune_kernels
