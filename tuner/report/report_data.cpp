#include "tuner/report/report_data.h"

#include "tuner/common/errors.h"
#include "tuner/common/text.h"
#include "tuner/record/shape_columns.h"
#include "tuner/version.h"

namespace sgemm_tune {
namespace {

// The newest moment the database records: the page's "as of", so that the same database
// gives the same page whenever it is written.
std::string newest_record(Database &db) {
  Statement st = db.prepare("SELECT MAX(MAX(started_at, COALESCE(finished_at, ''))) AS t FROM runs");
  return st.step() && !st.is_null("t") ? st.column_text("t") : "";
}

// The shapes (per GPU) with results of any kind, for an error that says what is there.
std::string shapes_present(Database &db) {
  Statement st = db.prepare(R"(SELECT DISTINCT r.gpu_name, x.m, x.n, x.k, x.operands FROM results x JOIN runs r ON r.id = x.run_id
    ORDER BY 1, 2, 3, 4, 5 LIMIT 20)");
  std::string out;
  while (st.step())
    out += (out.empty() ? "" : ", ") + read_shape(st).to_string() +
           " on " + terminal_safe(st.column_text("gpu_name"));
  return out.empty() ? "none" : out;
}

std::string scope_text(const ReportScope &scope) {
  std::string out = scope.shape ? "shape " + scope.shape->to_string() : "";
  if (!scope.gpu.empty()) out += (out.empty() ? "GPU " : " on GPU ") + terminal_safe(scope.gpu);
  return out;
}

}  // namespace

nlohmann::json collect_report_data(Database &db, const CurrentEnvironment &env, const ReportScope &scope,
                                   const std::string &database_name) {
  {
    Statement runs = db.prepare("SELECT COUNT(*) FROM runs");
    runs.step();
    if (runs.column_int(0) == 0) throw UserError(db.path() + " holds no tuning runs: nothing to report");
  }
  std::vector<BestEntry> entries;
  for (auto &e : best_entries(db, env))
    if (scope.covers(e.gpu_name, e.shape)) entries.push_back(std::move(e));
  nlohmann::json runs = run_summaries(db, scope);
  if (entries.empty() && (scope.shape || !scope.gpu.empty()) && runs.empty())
    throw UserError(db.path() + " has no results for " + scope_text(scope) + " (it has: " + shapes_present(db) + ")");

  nlohmann::json data;
  data["report_data_version"] = kReportDataVersion;
  nlohmann::json &g = data["generator"];
  g["tool"] = "sgemm-tune report";
  g["version"] = kTunerVersion;
  g["database"] = database_name;
  g["as_of"] = newest_record(db);
  g["scope"] = {{"shape", scope.shape ? scope.shape->to_string() : ""}, {"gpu", scope.gpu}};
  // What stale means on this page: differs from this build's template, NVRTC and tuner.
  g["compared_with"] = {{"template_hash", env.template_hash},
                        {"nvrtc_version", env.nvrtc_version},
                        {"tuner_version", env.tuner_version},
                        {"gpu", env.gpu_name}};
  data["best"] = best_summaries(entries);
  data["runs"] = std::move(runs);
  data["history"] = best_history(db, scope);
  data["candidates"] = timed_candidates(db, entries);
  return data;
}

}  // namespace sgemm_tune
