#include "tuner/record/exchange.h"

#include <optional>
#include <set>

#include "tuner/common/errors.h"
#include "tuner/common/text.h"
#include "tuner/record/row_checks.h"
#include "tuner/record/tile_columns.h"

namespace sgemm_tune {
namespace {

using nlohmann::json;

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64_encode(const std::string &in) {
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += kBase64[(v >> s) & 63];
  }
  if (i < in.size()) {
    unsigned v = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<unsigned char>(in[i + 1]) << 8;
    out += kBase64[(v >> 18) & 63];
    out += kBase64[(v >> 12) & 63];
    out += i + 1 < in.size() ? kBase64[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string base64_decode(const std::string &in, const std::string &where) {
  std::string out;
  unsigned v = 0;
  int bits = 0;
  for (char c : in) {
    if (c == '=') break;
    const char *p = std::char_traits<char>::find(kBase64, 64, c);
    if (!p) throw UserError(where + ": not base64");
    v = (v << 6) | static_cast<unsigned>(p - kBase64);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((v >> bits) & 0xff);
    }
  }
  return out;
}

// One column of the current row as JSON (blobs in base64).
json column_value(const Statement &st, int c) {
  switch (st.column_type(c)) {
    case Statement::Type::integer: return st.column_int(c);
    case Statement::Type::real: return st.column_double(c);
    case Statement::Type::text: return st.column_text(c);
    case Statement::Type::blob: return base64_encode(st.column_blob(c));
    case Statement::Type::null: break;
  }
  return nullptr;
}

// Every column of every row of a query, as JSON objects keyed by column name.
json rows_of(Database &db, const std::string &sql) {
  Statement st = db.prepare(sql);
  json rows = json::array();
  while (st.step()) {
    json row = json::object();
    for (int c = 0; c < st.column_count(); ++c) row[st.column_name(c)] = column_value(st, c);
    rows.push_back(std::move(row));
  }
  return rows;
}

// A run's results as one list of columns and rows of values (format 2): a one-shape run has
// tens of thousands of them, and naming every field of every row would be most of the file.
json result_table(Database &db, std::int64_t run_id) {
  Statement st = db.prepare("SELECT * FROM results WHERE run_id = :run_id ORDER BY id");
  st.bind(":run_id", run_id);
  std::vector<int> kept;
  json columns = json::array(), rows = json::array();
  for (int c = 0; c < st.column_count(); ++c)
    if (st.column_name(c) != "id" && st.column_name(c) != "run_id") {
      kept.push_back(c);
      columns.push_back(st.column_name(c));
    }
  while (st.step()) {
    json values = json::array();
    for (const int c : kept) values.push_back(column_value(st, c));
    rows.push_back(std::move(values));
  }
  return {{"columns", std::move(columns)}, {"rows", std::move(rows)}};
}

// The columns a table has, so that an import names only real ones.
std::set<std::string> columns_of(Database &db, const std::string &table) {
  std::set<std::string> out;
  Statement st = db.prepare("SELECT name FROM pragma_table_info('" + table + "')");
  while (st.step()) out.insert(st.column_text(0));
  return out;
}

void insert_row(Database &db, const std::string &table, const json &row, const std::set<std::string> &columns,
                const std::set<std::string> &skip, const std::set<std::string> &blobs, const std::string &where,
                const char *verb = "INSERT") {
  if (!row.is_object()) throw UserError(where + ": expected an object");
  std::string names, params;
  std::vector<std::string> keys;
  for (const auto &item : row.items()) {
    if (skip.count(item.key())) continue;
    if (!columns.count(item.key())) throw UserError(where + ": unknown column '" + item.key() + "' for " + table);
    names += (names.empty() ? "" : ", ") + item.key();
    params += (params.empty() ? ":" : ", :") + item.key();
    keys.push_back(item.key());
  }
  Statement st = db.prepare(std::string(verb) + " INTO " + table + " (" + names + ") VALUES (" + params + ")");
  for (const std::string &key : keys) {
    const json &v = row[key];
    const std::string name = ":" + key;
    if (v.is_null()) st.bind_null(name.c_str());
    else if (v.is_number_integer()) st.bind(name.c_str(), v.get<std::int64_t>());
    else if (v.is_number()) st.bind(name.c_str(), v.get<double>());
    else if (v.is_string() && blobs.count(key)) st.bind_blob(name.c_str(), base64_decode(v.get<std::string>(), where + "." + key));
    else if (v.is_string()) st.bind(name.c_str(), v.get<std::string>());
    else throw UserError(where + "." + key + ": expected a number, a string or null");
  }
  st.run();
}

}  // namespace

json export_database(Database &db) {
  json doc;
  doc["format"] = "sgemm-tune export";
  doc["version"] = kExchangeVersion;
  json runs = rows_of(db, "SELECT * FROM runs ORDER BY id");
  for (auto &run : runs) {
    const std::int64_t id = run["id"].get<std::int64_t>();
    run.erase("id");
    run["results"] = result_table(db, id);
  }
  doc["runs"] = std::move(runs);
  doc["kernels"] = rows_of(db, "SELECT * FROM kernels ORDER BY fingerprint, " + tile_column_list());
  return doc;
}

namespace {

// The kernels of a document that are new to the database, with what their runs say they
// were compiled from.
struct KernelToCheck {
  std::size_t index;  // in doc["kernels"]
  CodeOrigin origin;
  std::string lowered_name, cubin;
};

std::optional<CodeOrigin> origin_of(const json &doc, Database &db, const std::string &fingerprint) {
  for (const json &run : doc["runs"])
    if (run["fingerprint"] == fingerprint)
      return CodeOrigin{run["template_hash"], run["compile_options"], run["nvrtc_version"],
                        run["compute_capability"], {}};
  Statement st = db.prepare(
      "SELECT template_hash, compile_options, nvrtc_version, compute_capability FROM runs WHERE fingerprint = :fp");
  st.bind(":fp", fingerprint);
  if (!st.step()) return std::nullopt;
  return CodeOrigin{st.column_text("template_hash"), st.column_text("compile_options"), st.column_text("nvrtc_version"),
                    st.column_text("compute_capability"), {}};
}

bool kernel_present(Database &db, const std::string &fingerprint, const SgemmTile &tile) {
  Statement st = db.prepare("SELECT 1 FROM kernels WHERE fingerprint = :fingerprint AND " + tile_column_match());
  st.bind(":fingerprint", fingerprint);
  bind_tile(st, tile);
  return st.step();
}

// Version 2 writes a run's results as {"columns": [...], "rows": [[...], ...]}; version 1
// as a list of objects. The checks and the import read objects: rows become objects here,
// after their shape is checked.
json with_result_objects(const json &doc, const std::string &source) {
  // Anything but a version-2 document with a list of runs is left for check_document to refuse.
  if (!doc.is_object() || !doc.contains("runs") || !doc["runs"].is_array() || !doc.contains("version") ||
      !doc["version"].is_number_integer() || doc["version"].get<std::int64_t>() < 2)
    return doc;
  json out = doc;
  for (std::size_t i = 0; i < out["runs"].size(); ++i) {
    json &run = out["runs"][i];
    if (!run.is_object() || !run.contains("results")) continue;
    const std::string where = source + ": runs[" + std::to_string(i) + "].results";
    const json table = run["results"];
    if (!table.is_object() || !table.contains("columns") || !table.contains("rows") || !table["columns"].is_array() ||
        !table["rows"].is_array() || table.size() != 2)
      throw UserError(where + ": expected {\"columns\": [...], \"rows\": [...]}");
    for (const json &c : table["columns"])
      if (!c.is_string()) throw UserError(where + ".columns: expected a list of names");
    json objects = json::array();
    for (std::size_t j = 0; j < table["rows"].size(); ++j) {
      const json &values = table["rows"][j];
      if (!values.is_array() || values.size() != table["columns"].size())
        throw UserError(where + ".rows[" + std::to_string(j) + "]: expected a list of " +
                        std::to_string(table["columns"].size()) + " values");
      json object = json::object();
      for (std::size_t c = 0; c < values.size(); ++c) {
        const std::string &name = table["columns"][c].get_ref<const std::string &>();
        if (object.contains(name)) throw UserError(where + ".columns: a column appears twice");
        object[name] = values[c];
      }
      objects.push_back(std::move(object));
    }
    run["results"] = std::move(objects);
  }
  return out;
}

// Every field of every row, before anything is written or compiled.
void check_document(const json &doc, const std::string &source) {
  // Types are checked before values are read: json::value() throws on a field of another type.
  if (!doc.is_object() || !doc.contains("format") || doc["format"] != "sgemm-tune export")
    throw UserError(source + ": not an sgemm-tune export (no \"format\": \"sgemm-tune export\")");
  if (!doc.contains("version") || !doc["version"].is_number_integer() || doc["version"].get<std::int64_t>() < 1 ||
      doc["version"].get<std::int64_t>() > kExchangeVersion)
    throw UserError(source + ": export version " + (doc.contains("version") ? terminal_safe(doc["version"].dump(
                                                                                  -1, ' ', false, json::error_handler_t::replace))
                                                                            : "missing") +
                    " is not one this sgemm-tune reads (1 to " + std::to_string(kExchangeVersion) + ")");
  for (const auto &item : doc.items())
    if (item.key() != "format" && item.key() != "version" && item.key() != "runs" && item.key() != "kernels")
      throw UserError(source + ": unknown field \"" + terminal_safe(item.key()) + "\"");
  if (!doc.contains("runs") || !doc["runs"].is_array()) throw UserError(source + ": \"runs\" must be a list");
  if (doc.contains("kernels") && !doc["kernels"].is_array())
    throw UserError(source + ": \"kernels\" must be a list");
  std::set<std::string> uids;
  for (std::size_t i = 0; i < doc["runs"].size(); ++i) {
    const json &run = doc["runs"][i];
    const std::string where = source + ": runs[" + std::to_string(i) + "]";
    check_run_row(run, where);
    if (!uids.insert(run["uid"].get<std::string>()).second) throw UserError(where + ".uid: appears twice");
    if (!run.contains("results")) continue;
    if (!run["results"].is_array()) throw UserError(where + ".results: expected a list");
    for (std::size_t j = 0; j < run["results"].size(); ++j)
      check_result_row(run["results"][j], where + ".results[" + std::to_string(j) + "]");
  }
  if (doc.contains("kernels"))
    for (std::size_t i = 0; i < doc["kernels"].size(); ++i)
      check_kernel_row(doc["kernels"][i], source + ": kernels[" + std::to_string(i) + "]");
}

// Which of the document's kernels may be stored: only code that this tuner, compiling the
// same tile from the same template with the same options and NVRTC, produces itself.
std::vector<std::size_t> verified_kernels(Database &db, const json &doc, const CodeRebuilder *rebuilder,
                                          ImportSummary &summary) {
  std::vector<KernelToCheck> candidates;
  if (!doc.contains("kernels")) return {};
  for (std::size_t i = 0; i < doc["kernels"].size(); ++i) {
    const json &k = doc["kernels"][i];
    const std::string fingerprint = k["fingerprint"];
    const SgemmTile tile = tile_of_row(k);
    if (kernel_present(db, fingerprint, tile)) continue;
    std::optional<CodeOrigin> origin = origin_of(doc, db, fingerprint);
    if (!origin) {
      summary.kernels_dropped.push_back("kernels[" + std::to_string(i) + "]: no run has its fingerprint");
      continue;
    }
    origin->tile = tile;
    candidates.push_back({i, *origin, k["lowered_name"],
                          base64_decode(k["cubin"].get<std::string>(), "kernels[" + std::to_string(i) + "].cubin")});
  }
  std::vector<CodeOrigin> origins;
  for (const auto &c : candidates) origins.push_back(c.origin);
  const std::vector<RebuiltCode> rebuilt =
      rebuilder ? rebuilder->rebuild(origins) : std::vector<RebuiltCode>(origins.size(), {std::nullopt, "not checked"});
  std::vector<std::size_t> keep;
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const std::string what = "kernels[" + std::to_string(candidates[c].index) + "] (" +
                             describe_tile(candidates[c].origin.tile) + "): ";
    switch (compare_code(rebuilt[c], candidates[c].lowered_name, candidates[c].cubin)) {
      case CodeCheck::same: keep.push_back(candidates[c].index); break;
      case CodeCheck::differs:
        summary.kernels_dropped.push_back(what + "differs from the code this tuner compiles for that tile");
        break;
      case CodeCheck::not_rebuilt:
        summary.kernels_dropped.push_back(what + "cannot be checked here: " + rebuilt[c].why_not);
        break;
    }
  }
  return keep;
}

}  // namespace

ImportSummary import_database(Database &db, const json &input, const std::string &source,
                              const CodeRebuilder *rebuilder) {
  const json doc = with_result_objects(input, source);
  check_document(doc, source);
  ImportSummary summary;
  const std::vector<std::size_t> kernels = verified_kernels(db, doc, rebuilder, summary);

  const std::set<std::string> run_columns = columns_of(db, "runs");
  const std::set<std::string> result_columns = columns_of(db, "results");
  const std::set<std::string> kernel_columns = columns_of(db, "kernels");
  Transaction tx(db);
  for (std::size_t i = 0; i < doc["runs"].size(); ++i) {
    const json &run = doc["runs"][i];
    const std::string where = source + ": runs[" + std::to_string(i) + "]";
    Statement seen = db.prepare("SELECT 1 FROM runs WHERE uid = :uid");
    seen.bind(":uid", run["uid"].get<std::string>());
    if (seen.step()) {
      ++summary.runs_already_present;
      continue;
    }
    insert_row(db, "runs", run, run_columns, {"results"}, {}, where);
    const std::int64_t id = db.last_insert_rowid();
    ++summary.runs_added;
    if (!run.contains("results")) continue;
    for (std::size_t j = 0; j < run["results"].size(); ++j) {
      json r = run["results"][j];
      // Exports of schema 2 and before hold invalid outcomes, which are now derived.
      if (r["status"] == "invalid") continue;
      r["run_id"] = id;
      insert_row(db, "results", r, result_columns, {}, {}, where + ".results[" + std::to_string(j) + "]");
      ++summary.results_added;
    }
  }
  for (const std::size_t i : kernels) {
    insert_row(db, "kernels", doc["kernels"][i], kernel_columns, {}, {"cubin"},
               source + ": kernels[" + std::to_string(i) + "]", "INSERT OR IGNORE");
    summary.kernels_added += db.changes() > 0 ? 1 : 0;
  }
  tx.commit();
  return summary;
}

}  // namespace sgemm_tune
