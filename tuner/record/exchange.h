// Moving tunings between machines: every run with its provenance and results, and the
// machine code kept for headers, as one JSON document. Import is idempotent: a run is
// identified by its uid, and a run already present is skipped. An export is data from
// elsewhere: import checks all of it, and trusts no machine code it did not compile.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tuner/record/code_check.h"
#include "tuner/record/sqlite.h"

namespace sgemm_tune {

// 1: results as objects; 2: results as columns and rows (both are read).
inline constexpr int kExchangeVersion = 2;

nlohmann::json export_database(Database &db);

struct ImportSummary {
  std::size_t runs_added = 0, runs_already_present = 0, results_added = 0;
  std::size_t kernels_added = 0;           // each checked: the tuner compiles the same bytes
  std::vector<std::string> kernels_dropped;  // why each other new kernel was not stored
};

// Every field of the document is checked first (row_checks.h); the first violation is a
// UserError naming the file, the row and the field, and nothing is written. Machine code
// is stored only where `rebuilder` compiles the same bytes for the same tile (null: none
// is stored); `emit` compiles the rest again. All or nothing: one transaction.
ImportSummary import_database(Database &db, const nlohmann::json &doc, const std::string &source,
                              const CodeRebuilder *rebuilder);

}  // namespace sgemm_tune
