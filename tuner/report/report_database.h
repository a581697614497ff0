// Opening a database to report on. A report only reads: a file that is missing, is not
// SQLite, is SQLite but not an sgemm-tune database, or comes from a newer sgemm-tune is
// refused with one clear line, before anything is written anywhere.
#pragma once

#include <string>

#include "tuner/record/sqlite.h"

namespace sgemm_tune {

// Throws UserError. An sgemm-tune database of an older schema is brought up to date, as
// every other command does.
Database open_report_database(const std::string &path);

}  // namespace sgemm_tune
