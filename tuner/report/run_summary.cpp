#include <ctime>
#include <map>
#include <optional>

#include "tuner/record/shape_columns.h"
#include "tuner/report/report_queries.h"

namespace sgemm_tune {
namespace {

// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ" (what the tuner records), or nullopt.
std::optional<long long> utc_seconds(const std::string &text) {
  std::tm tm{};
  int year, month, day, hour, minute, second;
  char end = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &year, &month, &day, &hour, &minute, &second, &end) != 7 ||
      end != 'Z')
    return std::nullopt;
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  return static_cast<long long>(timegm(&tm));
}

long long count_of(const nlohmann::json &counts, const char *key) {
  const auto it = counts.find(key);
  return it != counts.end() && it->is_number_integer() ? it->get<long long>() : 0;
}

nlohmann::json step(const std::string &name, long long count, const char *kind) {
  return nlohmann::json{{"step", name}, {"count", count}, {"kind", kind}};
}

// The funnel of a run that recorded no counts (it died, or predates them): what its rows say.
nlohmann::json funnel_from_rows(Database &db, std::int64_t run_id) {
  Statement st = db.prepare(
      "SELECT status, COALESCE(reason, '') AS reason, COUNT(*) AS n FROM results WHERE run_id = :run "
      "GROUP BY status, reason ORDER BY status, reason");
  st.bind(":run", run_id);
  nlohmann::json out = nlohmann::json::array();
  std::map<std::string, long long> by_status;
  while (st.step()) {
    const std::string status = st.column_text("status");
    if (status == "pruned") out.push_back(step("pruned: " + st.column_text("reason"), st.column_int("n"), "pruned"));
    else by_status[status] += st.column_int("n");
  }
  out.push_back(step("compile failed", by_status["compile_failed"], "failed"));
  out.push_back(step("timed and verified", by_status["ok"], "kept"));
  out.push_back(step("wrong result", by_status["wrong_result"], "failed"));
  out.push_back(step("launch failed", by_status["launch_failed"], "failed"));
  return out;
}

struct TimeUse {
  double compile_seconds = 0, timed_seconds = 0;
};

std::map<std::int64_t, TimeUse> time_use(Database &db) {
  Statement st = db.prepare(R"(SELECT run_id, SUM(COALESCE(compile_seconds, 0)) AS compile_s,
           SUM(COALESCE(time_ms, 0) * COALESCE(repeats, 0)) / 1000.0 AS timed_s
    FROM results GROUP BY run_id)");
  std::map<std::int64_t, TimeUse> out;
  while (st.step()) out[st.column_int("run_id")] = {st.column_double("compile_s"), st.column_double("timed_s")};
  return out;
}

// The shapes a run has results at, and those of the runs that share its fingerprint and
// space (a re-run that reused everything stores no rows of its own).
bool run_in_scope(Database &db, const ReportScope &scope, const std::string &gpu, const std::string &fingerprint,
                  const std::string &space_hash) {
  if (!scope.gpu.empty() && gpu != scope.gpu) return false;
  if (!scope.shape) return true;
  Statement st = db.prepare(R"(SELECT 1 FROM results x JOIN runs r ON r.id = x.run_id
    WHERE r.fingerprint = :fingerprint AND r.space_hash = :space AND )" + shape_column_match("x.") + " LIMIT 1");
  st.bind(":fingerprint", fingerprint).bind(":space", space_hash);
  bind_shape(st, *scope.shape);
  return st.step();
}

}  // namespace

nlohmann::json funnel_from_counts(const std::string &counts_json) {
  const nlohmann::json counts = nlohmann::json::parse(counts_json, nullptr, false);
  if (!counts.is_object()) return nlohmann::json::array();
  nlohmann::json out = nlohmann::json::array();
  out.push_back(step("enumerated", count_of(counts, "candidates"), "all"));
  if (count_of(counts, "excluded_by_constraint") > 0)
    out.push_back(step("excluded by constraint", count_of(counts, "excluded_by_constraint"), "dropped"));
  out.push_back(step("invalid", count_of(counts, "invalid"), "dropped"));
  if (const auto pruned = counts.find("pruned"); pruned != counts.end() && pruned->is_object())
    for (const auto &[reason, n] : pruned->items())  // nlohmann orders keys: stable
      if (n.is_number_integer()) out.push_back(step("pruned: " + reason, n.get<long long>(), "pruned"));
  out.push_back(step("compile failed", count_of(counts, "compile_failed"), "failed"));
  out.push_back(step("compiled", count_of(counts, "compiled"), "kept"));
  // A staged search's finalists' probes, compiled again for the BLAS shapes they waited for.
  if (count_of(counts, "taken_again") > 0)
    out.push_back(step("compiled again for more shapes", count_of(counts, "taken_again"), "info"));
  if (count_of(counts, "reused") > 0) out.push_back(step("reused (timed before)", count_of(counts, "reused"), "kept"));
  out.push_back(step("timed", count_of(counts, "measurements"), "kept"));
  out.push_back(step("stopped early (could not win)", count_of(counts, "stopped_early"), "info"));
  out.push_back(step("wrong result", count_of(counts, "wrong_result"), "failed"));
  out.push_back(step("launch failed", count_of(counts, "launch_failed"), "failed"));
  out.push_back(step("verified ok", count_of(counts, "ok"), "kept"));
  return out;
}

nlohmann::json run_summaries(Database &db, const ReportScope &scope) {
  const std::map<std::int64_t, TimeUse> use = time_use(db);
  Statement st = db.prepare(R"(SELECT id, started_at, COALESCE(finished_at, '') AS finished_at, status, space_name,
           space_hash, gpu_name, fingerprint, template_hash, timing_method, COALESCE(counts, '') AS counts
    FROM runs ORDER BY started_at, id)");
  nlohmann::json out = nlohmann::json::array();
  while (st.step()) {
    const std::int64_t id = st.column_int("id");
    const std::string gpu = st.column_text("gpu_name"), fingerprint = st.column_text("fingerprint");
    if (!run_in_scope(db, scope, gpu, fingerprint, st.column_text("space_hash"))) continue;
    nlohmann::json j;
    j["id"] = id;
    j["started_at"] = st.column_text("started_at");
    j["finished_at"] = st.column_text("finished_at");
    j["status"] = st.column_text("status");
    j["space"] = st.column_text("space_name");
    j["gpu"] = gpu;
    j["fingerprint"] = fingerprint;
    j["template_hash"] = st.column_text("template_hash");
    j["timing_method"] = st.column_text("timing_method");
    nlohmann::json funnel = funnel_from_counts(st.column_text("counts"));
    j["funnel_from"] = funnel.empty() ? "rows" : "counts";
    j["funnel"] = funnel.empty() ? funnel_from_rows(db, id) : std::move(funnel);
    const auto start = utc_seconds(j["started_at"]), end = utc_seconds(j["finished_at"]);
    j["wall_seconds"] = start && end ? nlohmann::json(*end - *start) : nlohmann::json();
    const auto u = use.find(id);
    j["compile_seconds"] = u == use.end() ? 0.0 : rounded(u->second.compile_seconds, 1e-2);
    j["timed_seconds"] = u == use.end() ? 0.0 : rounded(u->second.timed_seconds, 1e-3);
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace sgemm_tune
