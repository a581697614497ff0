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
  // Any values may reach here, valid or not: tile_threads is 0 where no count is defined,
  // and shared memory too large for 64 bits leaves a constraint undefined, as overflow does.
  if (name == "THREADS") return sgemm_tune_kernels::tile_threads(tile);
  if (name != "SMEM_BYTES") return std::nullopt;
  if (tile.BM < 1 || tile.BN < 1 || tile.BK < 1 || tile.STAGES < 1) return 0;
  const long long stage = sgemm_tune_kernels::tile_a_stage_floats(tile) + sgemm_tune_kernels::tile_b_stage_floats(tile);
  long long bytes = 0;
  if (__builtin_mul_overflow(stage, 4LL * tile.STAGES, &bytes)) return std::nullopt;
  return bytes;
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
    case TileRule::too_large: return "too_large";
    case TileRule::warp_tile_split: return "warp_tile_split";
    case TileRule::thread_count: return "thread_count";
    case TileRule::warp_iterations: return "warp_iterations";
    case TileRule::warp_subtile: return "warp_subtile";
    case TileRule::vector_width: return "vector_width";
    case TileRule::a_load_mapping: return "a_load_mapping";
    case TileRule::b_load_mapping: return "b_load_mapping";
    case TileRule::prepare_split: return "prepare_split";
    case TileRule::a_stage_rows: return "a_stage_rows";
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
