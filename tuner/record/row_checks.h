// The checks a row passes before the tuner trusts it, when it comes from outside: an
// export someone sent (import), or a database file someone handed over (best, stale,
// emit). Every column has a type, a range or a character set, and a length; tiles must
// obey the kernel's validity rules; statuses and reasons must be ones the tuner writes;
// a run's fingerprint must be the hash of its parts. The first violation is a UserError
// that names where the row came from, the field, what was expected and (shown safely)
// what was there.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tuner/common/text.h"
#include "tuner/space/tile.h"

namespace sgemm_tune {

// `where` names the row, e.g. "tunings.json: runs[2]". Unknown columns, missing required
// columns, wrong JSON types and out-of-range values are all refused.
void check_run_row(const nlohmann::json &row, const std::string &where);
void check_result_row(const nlohmann::json &row, const std::string &where);  // without run_id
void check_kernel_row(const nlohmann::json &row, const std::string &where);  // cubin as base64

// The tile of a row that passed one of the checks above (absent switches are 0).
SgemmTile tile_of_row(const nlohmann::json &row);

// "9.0": digits, a dot, digits. Generated code writes its parts as integer literals.
bool is_compute_capability(const std::string &text);
// The tile obeys the kernel's validity rules (and every parameter is small enough for
// them to be evaluated without overflow).
bool is_valid_tile(const SgemmTile &tile);

inline constexpr std::size_t kMaxCubinBytes = 16u << 20;

}  // namespace sgemm_tune
