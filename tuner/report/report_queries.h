// What a report shows, read from the database as JSON values the page draws. Each
// function answers one question; collect_report_data (report_data.h) puts them together.
// Text from the database is carried as data, never as markup: the page shows it as text.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tuner/query/best.h"
#include "tuner/record/sqlite.h"
#include "tuner/space/shape.h"

namespace sgemm_tune {

// Figures go into the page rounded to `unit`: fewer digits to carry, and the same text for
// the same database. Divided by a whole number, so that 103.85 is written "103.85".
inline double rounded(double value, double unit) {
  const double scale = std::round(1 / unit);
  return std::round(value * scale) / scale;
}

// What a report covers: every GPU and shape, or one of each.
struct ReportScope {
  std::optional<Shape> shape;
  std::string gpu;
  bool covers(const std::string &gpu_name, const Shape &s) const;
};

// Per GPU and shape, the best configuration against cuBLAS, fresh or stale (best.h decides
// which, as `best` and `stale` do). One object per entry, in the entries' order.
nlohmann::json best_summaries(const std::vector<BestEntry> &entries);

// Per run in scope, oldest first: its provenance, the funnel of its candidates (from the
// counts it recorded, else from its stored rows) and where its time went.
nlohmann::json run_summaries(Database &db, const ReportScope &scope);

// The funnel of one run from the counts it recorded (runs.counts): one step per stage and
// per pruning reason, in pipeline order; empty when the counts cannot be read.
nlohmann::json funnel_from_counts(const std::string &counts_json);

// Per run and shape: the best result known under the run's fingerprint once that run had
// ended (its own results and those of earlier runs with the same fingerprint). A template
// change starts a new fingerprint, so it shows as a step.
nlohmann::json best_history(Database &db, const ReportScope &scope);

// Every verified and timed candidate of each entry's shape under the entry's fingerprint
// (the fastest time where one was timed twice), fastest first; "series" is the entry's
// index. The seed's configuration is flagged.
nlohmann::json timed_candidates(Database &db, const std::vector<BestEntry> &entries);

}  // namespace sgemm_tune
