#include "tuner/search/replay_data.h"

#include <cmath>
#include <set>
#include <sstream>

#include "tuner/common/errors.h"
#include "tuner/common/text.h"
#include "tuner/record/database_file.h"
#include "tuner/record/row_checks.h"

namespace sgemm_tune {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxShapes = 256;
constexpr std::size_t kMaxRows = 4'000'000;

std::vector<std::string> expected_columns() {
  std::vector<std::string> c(kTileParameters.begin(), kTileParameters.end());
  c.insert(c.end(), {"shape", "status", "time_ms"});
  return c;
}

std::string shown(const json &j) {
  std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return terminal_safe(text);
}

[[noreturn]] void fail(const std::string &where, const std::string &what) { throw UserError(where + ": " + what); }

std::string text_field(const json &doc, const char *key, const std::string &source) {
  if (!doc.contains(key)) return "";
  if (!doc[key].is_string() || !is_plain_text(doc[key].get_ref<const std::string &>(), kMaxLongTextBytes))
    fail(source + ": " + key, "expected plain text of at most " + std::to_string(kMaxLongTextBytes) + " bytes");
  return doc[key].get<std::string>();
}

double positive_number(const json &j, const std::string &where) {
  if (!j.is_number() || !std::isfinite(j.get<double>()) || !(j.get<double>() > 0) || j.get<double>() > 1e9)
    fail(where, "expected a positive number of milliseconds, got " + shown(j));
  return j.get<double>();
}

void read_shapes(const json &doc, const std::string &source, ReplayData &data) {
  if (!doc.contains("shapes") || !doc["shapes"].is_array() || doc["shapes"].empty() ||
      doc["shapes"].size() > kMaxShapes)
    fail(source + ": shapes", "expected a list of 1 to " + std::to_string(kMaxShapes) + " shapes");
  for (std::size_t i = 0; i < doc["shapes"].size(); ++i) {
    const json &s = doc["shapes"][i];
    const std::string where = source + ": shapes[" + std::to_string(i) + "]";
    if (!s.is_object() || s.size() != 2 || !s.contains("shape") || !s.contains("cublas_ms") || !s["shape"].is_string())
      fail(where, "expected {\"shape\": \"MxNxK\", \"cublas_ms\": ms}");
    Shape shape;
    try {
      shape = parse_shape(s["shape"].get<std::string>());
    } catch (const UserError &e) {
      fail(where + ".shape", e.what());
    }
    for (const Shape &seen : data.shapes)
      if (seen == shape) fail(where + ".shape", "appears twice");
    data.shapes.push_back(shape);
    data.cublas_ms.push_back(positive_number(s["cublas_ms"], where + ".cublas_ms"));
  }
}

ReplayRow read_row(const json &values, std::size_t shapes, const std::string &where) {
  const std::size_t width = expected_columns().size();
  if (!values.is_array() || values.size() != width)
    fail(where, "expected a list of " + std::to_string(width) + " values, got " + shown(values));
  ReplayRow row;
  for (std::size_t p = 0; p < kTileParameters.size(); ++p) {
    const json &v = values[p];
    const int hi = p >= kFirstSwitchParameter ? 1 : (1 << 16);
    if (!v.is_number_integer() || v.get<long long>() < tile_parameter_min(p) || v.get<long long>() > hi)
      fail(where + "." + std::string(kTileParameters[p]),
           "expected an integer from " + std::to_string(tile_parameter_min(p)) + " to " + std::to_string(hi) +
               ", got " + shown(v));
    set_tile_parameter(row.tile, p, v.get<int>());
  }
  if (!is_valid_tile(row.tile)) fail(where, "the tile breaks the kernel's validity rules: " + describe_tile(row.tile));
  const json &shape = values[kTileParameters.size()];
  if (!shape.is_number_integer() || shape.get<long long>() < 0 || shape.get<long long>() >= static_cast<long long>(shapes))
    fail(where + ".shape", "expected an index into shapes (0 to " + std::to_string(shapes - 1) + "), got " + shown(shape));
  row.shape = shape.get<std::size_t>();
  const json &status = values[kTileParameters.size() + 1];
  const auto parsed = status.is_string() ? status_from_string(status.get<std::string>()) : std::nullopt;
  if (!parsed || *parsed == CandidateStatus::invalid)
    fail(where + ".status", "expected ok, compile_failed, pruned, launch_failed or wrong_result, got " + shown(status));
  row.status = *parsed;
  const json &time = values[kTileParameters.size() + 2];
  if (row.status == CandidateStatus::ok) row.time_ms = positive_number(time, where + ".time_ms");
  else if (!time.is_null()) fail(where + ".time_ms", "must be null unless the status is ok, got " + shown(time));
  return row;
}

}  // namespace

std::vector<SgemmTile> ReplayData::survivors() const {
  std::vector<SgemmTile> out;
  std::set<SgemmTile> seen;
  for (const ReplayRow &r : rows)
    if (seen.insert(r.tile).second) out.push_back(r.tile);
  return out;
}

std::map<std::pair<SgemmTile, std::size_t>, double> ReplayData::times() const {
  std::map<std::pair<SgemmTile, std::size_t>, double> out;
  for (const ReplayRow &r : rows)
    if (r.status == CandidateStatus::ok) out.emplace(std::make_pair(r.tile, r.shape), r.time_ms);
  return out;
}

ReplayData parse_replay_data(const json &doc, const std::string &source) {
  if (!doc.is_object() || !doc.contains("format") || doc["format"] != "sgemm-tune replay")
    fail(source, "not sgemm-tune replay data (no \"format\": \"sgemm-tune replay\")");
  if (!doc.contains("version") || !doc["version"].is_number_integer() || doc["version"].get<long long>() != kReplayVersion)
    fail(source + ": version", "expected " + std::to_string(kReplayVersion) + ", got " +
                                   (doc.contains("version") ? shown(doc["version"]) : std::string("nothing")));
  const std::set<std::string> known = {"format", "version", "description", "gpu", "space", "shapes", "columns", "rows"};
  for (const auto &item : doc.items())
    if (!known.count(item.key())) fail(source, "unknown field \"" + terminal_safe(item.key()) + "\"");
  ReplayData data;
  data.description = text_field(doc, "description", source);
  data.gpu = text_field(doc, "gpu", source);
  if (!doc.contains("space") || !doc["space"].is_object()) fail(source + ": space", "expected a search space object");
  data.space_json = doc["space"];
  data.space = parse_search_space(doc["space"].dump(), source + ": space");
  read_shapes(doc, source, data);
  const std::vector<std::string> columns = expected_columns();
  if (!doc.contains("columns") || doc["columns"] != json(columns))
    fail(source + ": columns", "expected " + json(columns).dump());
  if (!doc.contains("rows") || !doc["rows"].is_array() || doc["rows"].size() > kMaxRows)
    fail(source + ": rows", "expected a list of at most " + std::to_string(kMaxRows) + " rows");
  std::set<std::pair<SgemmTile, std::size_t>> seen;
  std::vector<bool> timed(data.shapes.size(), false);
  for (std::size_t i = 0; i < doc["rows"].size(); ++i) {
    const std::string where = source + ": rows[" + std::to_string(i) + "]";
    ReplayRow row = read_row(doc["rows"][i], data.shapes.size(), where);
    if (!seen.insert({row.tile, row.shape}).second) fail(where, "a second row for the same tile and shape");
    if (row.status == CandidateStatus::ok) timed[row.shape] = true;
    data.rows.push_back(row);
  }
  for (std::size_t s = 0; s < timed.size(); ++s)
    if (!timed[s]) fail(source + ": rows", "nothing was timed at " + data.shapes[s].to_string());
  return data;
}

ReplayData load_replay_data(const std::string &path) { return parse_replay_data(read_json_file(path), path); }

std::string replay_data_to_text(const ReplayData &data) {
  json shapes = json::array();
  for (std::size_t s = 0; s < data.shapes.size(); ++s)
    shapes.push_back({{"shape", data.shapes[s].to_string()}, {"cublas_ms", data.cublas_ms[s]}});
  std::ostringstream out;
  const auto line = [&](const char *key, const json &value, bool last = false) {
    out << "  " << json(key).dump() << ": " << value.dump(-1, ' ', false, json::error_handler_t::replace)
        << (last ? "\n" : ",\n");
  };
  out << "{\n";
  line("format", "sgemm-tune replay");
  line("version", kReplayVersion);
  line("description", data.description);
  line("gpu", data.gpu);
  line("space", data.space_json);
  line("shapes", shapes);
  line("columns", expected_columns());
  out << "  \"rows\": [\n";
  for (std::size_t i = 0; i < data.rows.size(); ++i) {
    const ReplayRow &r = data.rows[i];
    json values = json::array();
    for (std::size_t p = 0; p < kTileParameters.size(); ++p) values.push_back(tile_parameter(r.tile, p));
    values.push_back(r.shape);
    values.push_back(std::string(to_string(r.status)));
    values.push_back(r.status == CandidateStatus::ok ? json(r.time_ms) : json(nullptr));
    out << "    " << values.dump() << (i + 1 < data.rows.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
  return out.str();
}

}  // namespace sgemm_tune
