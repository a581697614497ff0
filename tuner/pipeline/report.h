// Printers for a tuning report: a table for people, a versioned JSON object for scripts.
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

#include "tuner/pipeline/tune.h"
#include "tuner/query/best.h"
#include "tuner/space/tile_json.h"

namespace sgemm_tune {

inline constexpr int kReportJsonVersion = 1;

void print_report(const TuneReport &report, std::ostream &out, std::size_t top);
// A run's counts by outcome, as the JSON report and the database's runs.counts hold them.
nlohmann::json counts_to_json(const TuneCounts &counts);
nlohmann::json report_to_json(const TuneReport &report);

// [{"part": "template", "recorded": "...", "current": "..."}, ...]
nlohmann::json fingerprint_changes_to_json(const std::vector<FingerprintChange> &changes);

}  // namespace sgemm_tune
