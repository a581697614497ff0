// The data of a report page, gathered from the database in one object.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tuner/query/best.h"
#include "tuner/record/sqlite.h"
#include "tuner/report/report_queries.h"

namespace sgemm_tune {

inline constexpr int kReportDataVersion = 1;

// {"report_data_version", "generator", "best", "runs", "history", "candidates"}. Throws
// UserError for a database without runs and for a scope that matches nothing (naming what
// there is). `database_name` is what the page calls the database (the file's name).
nlohmann::json collect_report_data(Database &db, const CurrentEnvironment &env, const ReportScope &scope,
                                   const std::string &database_name);

}  // namespace sgemm_tune
