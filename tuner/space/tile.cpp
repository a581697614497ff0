#include "tuner/space/tile.h"

#include <tuple>

namespace sgemm_tune {
namespace {
// Field pointers in kTileParameters order: one table serves get, set and compare.
constexpr std::array<int SgemmTile::*, kTileParameters.size()> kFields = {
    &SgemmTile::BM,     &SgemmTile::BN, &SgemmTile::BK, &SgemmTile::WM,     &SgemmTile::WN,      &SgemmTile::WNITER,
    &SgemmTile::TM,     &SgemmTile::TN, &SgemmTile::STAGES, &SgemmTile::PREFETCH, &SgemmTile::STREAMK};
}  // namespace

int tile_parameter(const SgemmTile &tile, std::size_t index) { return tile.*kFields.at(index); }

void set_tile_parameter(SgemmTile &tile, std::size_t index, int value) { tile.*kFields.at(index) = value; }

std::optional<long long> tile_quantity(const SgemmTile &tile, std::string_view name) {
  for (std::size_t i = 0; i < kTileParameters.size(); ++i)
    if (kTileParameters[i] == name) return tile_parameter(tile, i);
  // Derived quantities are only meaningful for tiles whose ratios are defined.
  const bool divisible = tile.WM > 0 && tile.WN > 0;
  if (name == "THREADS") return divisible ? sgemm_tune_kernels::tile_threads(tile) : 0;
  if (name == "SMEM_BYTES") return tile.BK > 0 ? sgemm_tune_kernels::tile_smem_bytes(tile) : 0;
  return std::nullopt;
}

std::string describe_tile(const SgemmTile &tile) {
  std::string out;
  for (std::size_t i = 0; i < kTileParameters.size(); ++i) {
    if (i) out += ' ';
    out += kTileParameters[i];
    out += '=';
    out += std::to_string(tile_parameter(tile, i));
  }
  return out;
}

std::string tile_arguments(const SgemmTile &tile) {
  std::string out;
  for (std::size_t i = 0; i < kTileParameters.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(tile_parameter(tile, i));
  }
  return out;
}

std::string_view tile_rule_code(TileRule rule) {
  switch (rule) {
    case TileRule::ok: return "ok";
    case TileRule::non_positive: return "non_positive";
    case TileRule::switch_value: return "switch_value";
    case TileRule::too_few_stages: return "too_few_stages";
    case TileRule::warp_tile_split: return "warp_tile_split";
    case TileRule::thread_count: return "thread_count";
    case TileRule::warp_iterations: return "warp_iterations";
    case TileRule::warp_subtile: return "warp_subtile";
    case TileRule::vector_width: return "vector_width";
    case TileRule::a_load_mapping: return "a_load_mapping";
    case TileRule::b_load_mapping: return "b_load_mapping";
  }
  return "unknown";
}

}  // namespace sgemm_tune

namespace sgemm_tune_kernels {

bool operator==(const SgemmTile &a, const SgemmTile &b) {
  for (auto field : sgemm_tune::kFields)
    if (a.*field != b.*field) return false;
  return true;
}

bool operator<(const SgemmTile &a, const SgemmTile &b) {
  for (auto field : sgemm_tune::kFields)
    if (a.*field != b.*field) return a.*field < b.*field;
  return false;
}

bool operator!=(const SgemmTile &a, const SgemmTile &b) { return !(a == b); }

}  // namespace sgemm_tune_kernels
