#include "tuner/record/row_checks.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tuner/common/errors.h"
#include "tuner/common/status.h"
#include "tuner/common/text.h"
#include "tuner/prune/prune.h"
#include "tuner/record/result_store.h"
#include "tuner/record/tile_columns.h"
#include "tuner/space/settings.h"

namespace sgemm_tune {
namespace {

using nlohmann::json;

enum class Kind {
  text,       // plain text (UTF-8, no control characters)
  lines,      // plain text that may span lines
  token,      // letters, digits, '_' , '-', '.'
  hex,        // lower-case hexadecimal digits
  timestamp,  // 2026-11-30T21:34:44Z, as utc_now() writes
  cc,         // compute capability, "9.0"
  pci,        // PCI bus id, "0000:3b:00.0", as GpuInfo::pci_bus_id writes it
  operands,   // a shape's ops and layout, as Shape::operands_text writes them ("", "NT", "TN:col")
  integer,
  real,       // finite
  base64,
};

struct Column {
  const char *name;
  Kind kind;
  bool nullable;
  double lo, hi;  // integer and real: the range; text kinds: hi is the length in bytes
};

constexpr double kInt32Max = std::numeric_limits<std::int32_t>::max();
constexpr double kBig = 1e12;

// The columns of each table as the export writes them (schema in db/migrations/).
const std::vector<Column> kRunColumns = {
    {"uid", Kind::token, false, 1, 64},
    {"started_at", Kind::timestamp, false, 0, 0},
    {"finished_at", Kind::timestamp, true, 0, 0},
    {"status", Kind::token, false, 1, 32},
    {"command", Kind::text, false, 0, kMaxLongTextBytes},
    {"tuner_version", Kind::text, false, 1, kMaxNameBytes},
    {"space_name", Kind::text, false, 0, kMaxLongTextBytes},
    {"space_source", Kind::text, false, 0, kMaxLongTextBytes},
    {"space_hash", Kind::hex, false, 1, 64},
    {"gpu_name", Kind::text, false, 1, kMaxNameBytes},
    {"compute_capability", Kind::cc, false, 0, 0},
    {"sm_count", Kind::integer, false, 1, 4096},
    {"clock_mhz", Kind::integer, false, 0, 100000},
    {"driver_version", Kind::text, false, 0, kMaxNameBytes},
    {"runtime_version", Kind::text, false, 0, kMaxNameBytes},
    {"nvrtc_version", Kind::text, false, 1, kMaxNameBytes},
    {"compile_options", Kind::text, false, 0, kMaxLongTextBytes},
    {"template_origin", Kind::text, false, 0, kMaxLongTextBytes},
    {"template_hash", Kind::hex, false, 1, 64},
    {"fingerprint", Kind::hex, false, 1, 64},
    {"host", Kind::text, true, 0, kMaxNameBytes},
    {"pid", Kind::integer, true, 0, kInt32Max},
    {"counts", Kind::text, true, 0, kMaxDetailBytes},
    {"timing_method", Kind::token, false, 1, 16},  // schema version 6; absent: "stream"
};

std::vector<Column> with_tile(std::vector<Column> columns) {
  for (std::size_t i = 0; i < kTileColumns.size(); ++i)
    columns.push_back({kTileColumns[i].data(), Kind::integer, false, 0, 65536});
  return columns;
}

const std::vector<Column> kResultColumns = with_tile({
    {"m", Kind::integer, false, 1, kInt32Max},
    {"n", Kind::integer, false, 1, kInt32Max},
    {"k", Kind::integer, false, 1, kInt32Max},
    {"operands", Kind::operands, false, 0, 0},
    {"status", Kind::token, false, 1, 32},
    {"reason", Kind::token, true, 0, 128},
    {"detail", Kind::lines, true, 0, kMaxDetailBytes},
    {"threads", Kind::integer, true, 0, 1024},
    {"registers", Kind::integer, true, 0, 255},
    {"spill_bytes", Kind::integer, true, 0, kInt32Max},
    {"smem_bytes", Kind::integer, true, 0, kInt32Max},
    {"blocks_per_sm", Kind::integer, true, 0, 1024},
    {"runtime_blocks_per_sm", Kind::integer, true, 0, 1024},
    {"occupancy", Kind::real, true, 0, 1},
    {"time_ms", Kind::real, true, 0, kBig},
    {"tflops", Kind::real, true, 0, kBig},
    {"repeats", Kind::integer, true, 0, kInt32Max},
    {"cublas_ms", Kind::real, true, 0, kBig},
    {"cublas_tflops", Kind::real, true, 0, kBig},
    {"error_beta0", Kind::real, true, 0, std::numeric_limits<double>::max()},
    {"error_beta", Kind::real, true, 0, std::numeric_limits<double>::max()},
    {"compile_seconds", Kind::real, true, 0, kBig},
    {"measured_at", Kind::timestamp, false, 0, 0},
    {"device", Kind::integer, true, 0, 1023},
    {"pci_bus_id", Kind::pci, true, 0, 0},
});

const std::vector<Column> kKernelColumns = with_tile({
    {"fingerprint", Kind::hex, false, 1, 64},
    {"lowered_name", Kind::token, false, 1, 1024},
    {"cubin", Kind::base64, false, 1, 4.0 * ((kMaxCubinBytes + 2) / 3)},
});

[[noreturn]] void fail(const std::string &where, const std::string &field, const std::string &expected,
                       const json &got) {
  std::string shown = got.is_string() ? got.get_ref<const std::string &>() : got.dump(-1, ' ', false,
                                                                                      json::error_handler_t::replace);
  if (shown.size() > 60) shown = shown.substr(0, 60) + "... (" + std::to_string(shown.size()) + " bytes)";
  throw UserError(where + "." + field + ": expected " + expected + ", got " +
                  (got.is_string() ? "\"" + terminal_safe(shown) + "\"" : terminal_safe(shown)));
}

bool all_of(const std::string &s, bool (*ok)(char)) {
  for (char c : s)
    if (!ok(c)) return false;
  return true;
}
bool token_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.';
}
bool hex_char(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool base64_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '/' ||
         c == '=';
}

bool is_timestamp(const std::string &s) {
  // YYYY-MM-DDTHH:MM:SSZ
  static constexpr char kPattern[] = "dddd-dd-ddTdd:dd:ddZ";
  if (s.size() != sizeof kPattern - 1) return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (kPattern[i] == 'd' ? !digit(s[i]) : s[i] != kPattern[i]) return false;
  return true;
}

// domain:bus:device.function in lower-case hex: 4 to 8, 2, 2 and 1 digits.
bool is_pci_bus_id(const std::string &s) {
  const auto colon = s.find(':');
  if (colon < 4 || colon > 8 || s.size() != colon + 8) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const std::size_t after = i - colon;  // from the first colon
    const bool ok = i < colon ? hex_char(s[i])
                    : after == 0 || after == 3 ? s[i] == ':'
                    : after == 6               ? s[i] == '.'
                                               : hex_char(s[i]);
    if (!ok) return false;
  }
  return true;
}

std::string length_range(const Column &c) {
  return "of " + std::to_string(static_cast<long long>(c.lo)) + " to " + std::to_string(static_cast<long long>(c.hi)) +
         " bytes";
}

void check_text_value(const Column &c, const std::string &s, const std::string &where, const json &value) {
  const auto max = static_cast<std::size_t>(c.hi);
  const bool long_enough = s.size() >= static_cast<std::size_t>(c.lo);
  switch (c.kind) {
    case Kind::text:
      if (!long_enough || !is_plain_text(s, max)) fail(where, c.name, "plain text " + length_range(c), value);
      return;
    case Kind::lines:
      if (!long_enough || !is_plain_text(s, max, true))
        fail(where, c.name, "plain text (line breaks allowed) " + length_range(c), value);
      return;
    case Kind::token:
      if (!long_enough || s.size() > max || !all_of(s, token_char))
        fail(where, c.name, "letters, digits, '_', '-' or '.', " + length_range(c), value);
      return;
    case Kind::hex:
      if (!long_enough || s.size() > max || !all_of(s, hex_char))
        fail(where, c.name, "lower-case hexadecimal " + length_range(c), value);
      return;
    case Kind::timestamp:
      if (!is_timestamp(s)) fail(where, c.name, "a UTC time as YYYY-MM-DDTHH:MM:SSZ", value);
      return;
    case Kind::cc:
      if (!is_compute_capability(s)) fail(where, c.name, "a compute capability such as \"9.0\"", value);
      return;
    case Kind::pci:
      if (!is_pci_bus_id(s)) fail(where, c.name, "a PCI bus id such as \"0000:3b:00.0\"", value);
      return;
    case Kind::operands: {
      bool canonical = false;
      try {
        canonical = shape_with_operands(1, 1, 1, s).operands_text() == s;
      } catch (const UserError &) {
      }
      if (!canonical)
        fail(where, c.name, "a shape's operands: \"\", NN, NT, TN or TT, optionally followed by \":col\"", value);
      return;
    }
    case Kind::base64:
      if (s.size() % 4 != 0 || s.size() > max || !long_enough || !all_of(s, base64_char))
        fail(where, c.name, "base64 of at most " + std::to_string(kMaxCubinBytes) + " bytes", value);
      return;
    default:
      return;
  }
}

void check_column(const Column &c, const json &value, const std::string &where) {
  if (value.is_null()) {
    if (!c.nullable) fail(where, c.name, "a value (it may not be null)", value);
    return;
  }
  if (c.kind == Kind::integer) {
    const bool fits = value.is_number_integer() &&
                      !(value.is_number_unsigned() &&
                        value.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
    const double v = fits ? static_cast<double>(value.get<std::int64_t>()) : 0;
    if (!fits || v < c.lo || v > c.hi)
      fail(where, c.name,
           "an integer from " + std::to_string(static_cast<long long>(c.lo)) + " to " +
               std::to_string(static_cast<long long>(c.hi)),
           value);
    return;
  }
  if (c.kind == Kind::real) {
    const double v = value.is_number() ? value.get<double>() : std::nan("");
    if (!std::isfinite(v) || v < c.lo || v > c.hi)
      fail(where, c.name, "a finite number from " + std::to_string(c.lo) + " to " + std::to_string(c.hi), value);
    return;
  }
  if (!value.is_string()) fail(where, c.name, "a string", value);
  check_text_value(c, value.get_ref<const std::string &>(), where, value);
}

// Type and range of every column; no column the table lacks; none that it needs missing.
void check_columns(const std::vector<Column> &columns, const json &row, const std::string &where,
                   std::initializer_list<const char *> also_allowed = {}) {
  if (!row.is_object()) throw UserError(where + ": expected an object");
  for (const auto &item : row.items()) {
    bool known = false;
    for (const Column &c : columns) known = known || item.key() == c.name;
    for (const char *name : also_allowed) known = known || item.key() == name;
    if (!known) throw UserError(where + ": unknown field \"" + terminal_safe(item.key()) + "\"");
  }
  for (const Column &c : columns) {
    const auto it = row.find(c.name);
    if (it == row.end()) {
      // Columns added by later schema versions may be absent (older exports): switches
      // default to 0 like the database does; everything else nullable may be absent.
      const std::string name = c.name;
      const bool has_default =
          c.nullable || name == "prefetch" || name == "stream_k" || name == "operands" || name == "timing_method";
      if (!has_default) throw UserError(where + "." + c.name + ": missing");
      continue;
    }
    check_column(c, *it, where);
  }
}

constexpr int kMaxTileParameter = 4096;

bool tile_parameters_bounded(const SgemmTile &tile) {
  for (std::size_t i = 0; i < kTileParameters.size(); ++i) {
    const int v = tile_parameter(tile, i);
    if (v < 0 || v > kMaxTileParameter) return false;
  }
  return true;
}

void check_tile_of(const json &row, const std::string &where) {
  const SgemmTile tile = tile_of_row(row);
  if (!tile_parameters_bounded(tile))
    throw UserError(where + ": tile " + describe_tile(tile) + " breaks the kernel's validity rules (a parameter above " +
                    std::to_string(kMaxTileParameter) + ")");
  if (!is_valid_tile(tile))
    throw UserError(where + ": tile " + describe_tile(tile) + " breaks the kernel's validity rules (" +
                    std::string(tile_rule_code(sgemm_tune_kernels::check_tile(tile))) + ")");
}

std::string text_or_empty(const json &row, const char *name) {
  const auto it = row.find(name);
  return it == row.end() || it->is_null() ? std::string() : it->get<std::string>();
}

bool is_one_of(const std::string &value, std::initializer_list<const char *> choices) {
  for (const char *c : choices)
    if (value == c) return true;
  return false;
}

bool is_tile_rule_code(const std::string &value) {
  for (int r = 1; r < 64; ++r) {
    const std::string_view code = tile_rule_code(static_cast<TileRule>(r));
    if (code == "unknown") return false;
    if (code == value) return true;
  }
  return false;
}

// The reason codes a status can carry; failures of launches and checks carry the name of
// the CUDA error or of the check, which the token character set already bounds.
void check_reason(CandidateStatus status, const std::string &reason, const std::string &where) {
  bool known = true;
  if (status == CandidateStatus::invalid) known = reason == kShapeNotTiled || is_tile_rule_code(reason);
  if (status == CandidateStatus::pruned)
    known = is_one_of(reason, {kPruneRegisterEstimate, kPruneSharedMemory, kPruneSpills, kPruneResidency,
                               kPruneNotFinalist, kPruneNotProposed});
  if (status == CandidateStatus::compile_failed) known = reason == "nvrtc";
  if (!known)
    throw UserError(where + ".reason: \"" + reason + "\" is not a reason sgemm-tune records for status " +
                    std::string(to_string(status)));
}

}  // namespace

SgemmTile tile_of_row(const json &row) {
  SgemmTile tile{};
  for (std::size_t i = 0; i < kTileColumns.size(); ++i) {
    const auto it = row.find(kTileColumns[i]);
    set_tile_parameter(tile, i, it == row.end() ? 0 : it->get<int>());
  }
  return tile;
}

bool is_compute_capability(const std::string &text) {
  const auto dot = text.find('.');
  if (dot == std::string::npos || dot == 0 || dot > 2 || text.size() - dot - 1 < 1 || text.size() - dot - 1 > 2)
    return false;
  return all_of(text.substr(0, dot), digit) && all_of(text.substr(dot + 1), digit);
}

bool is_valid_tile(const SgemmTile &tile) {
  // check_tile is safe on any int; the bound also keeps a stored tile to sizes that a
  // block of any GPU could hold.
  return tile_parameters_bounded(tile) && sgemm_tune_kernels::check_tile(tile) == TileRule::ok;
}

void check_run_row(const json &row, const std::string &where) {
  check_columns(kRunColumns, row, where, {"results"});
  const std::string status = row["status"].get<std::string>();
  if (!is_one_of(status, {"running", "finished", "failed", "interrupted"}))
    throw UserError(where + ".status: expected running, finished, failed or interrupted, got \"" + status + "\"");
  Fingerprint f;
  f.template_hash = text_or_empty(row, "template_hash");
  f.compile_options = text_or_empty(row, "compile_options");
  f.nvrtc_version = text_or_empty(row, "nvrtc_version");
  f.driver_version = text_or_empty(row, "driver_version");
  f.gpu_name = text_or_empty(row, "gpu_name");
  f.compute_capability = text_or_empty(row, "compute_capability");
  f.tuner_version = text_or_empty(row, "tuner_version");
  if (row.contains("timing_method")) f.timing_method = row["timing_method"].get<std::string>();
  if (!timing_method(f.timing_method))
    throw UserError(where + ".timing_method: expected stream or graphs, got \"" + f.timing_method + "\"");
  if (f.hash() != row["fingerprint"].get<std::string>())
    throw UserError(where + ".fingerprint: is not the hash of the run's template, options, NVRTC, driver, GPU, "
                            "tuner and timing method (" + f.hash() + ")");
}

void check_result_row(const json &row, const std::string &where) {
  check_columns(kResultColumns, row, where);
  const std::string status_text = row["status"].get<std::string>();
  const auto status = status_from_string(status_text);
  if (!status) throw UserError(where + ".status: \"" + status_text + "\" is not a status sgemm-tune records");
  // An invalid candidate is recorded with the tile that broke the rules; every other one
  // passed them.
  if (*status != CandidateStatus::invalid) check_tile_of(row, where);
  check_reason(*status, text_or_empty(row, "reason"), where);
  if (*status == CandidateStatus::ok) {
    for (const char *field : {"time_ms", "cublas_ms"}) {
      const auto it = row.find(field);
      if (it == row.end() || it->is_null() || it->get<double>() <= 0)
        throw UserError(where + "." + field + ": a verified result needs a time above 0");
    }
  }
}

void check_kernel_row(const json &row, const std::string &where) {
  check_columns(kKernelColumns, row, where);
  check_tile_of(row, where);
}

}  // namespace sgemm_tune
