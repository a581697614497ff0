// Moving tunings between machines: every run with its provenance and results, and the
// machine code kept for headers, as one JSON document. Import is idempotent: a run is
// identified by its uid, and a run already present is skipped.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tuner/record/sqlite.h"

namespace sgemm_tune {

inline constexpr int kExchangeVersion = 1;

nlohmann::json export_database(Database &db);

struct ImportSummary {
  std::size_t runs_added = 0, runs_already_present = 0, results_added = 0, kernels_added = 0;
};

// All or nothing: one transaction. Throws UserError naming what is wrong with the document.
ImportSummary import_database(Database &db, const nlohmann::json &doc, const std::string &source);

}  // namespace sgemm_tune
