// Tunings that arrive as a file: an SQLite database someone handed over, or an export.
// Either is read into a database in memory (the file itself is never written), brought to
// this schema, and from there merged (import) or replayed, with the same checks as an
// export: a database file from elsewhere is trusted exactly as little.
#pragma once

#include <string>

#include "tuner/record/exchange.h"
#include "tuner/record/sqlite.h"

namespace sgemm_tune {

// A JSON file from elsewhere, parsed; UserError naming the file for one that cannot be
// opened or is not JSON (a number too large for a double, 1e999, included).
nlohmann::json read_json_file(const std::string &path);

// The file starts with SQLite's header ("SQLite format 3\0").
bool is_sqlite_file(const std::string &path);

// A copy in memory of the database at `path`, migrated to this schema. Throws UserError
// for a file that is not a database, is corrupt or is newer than this sgemm-tune.
Database copy_database_into_memory(const std::string &path);

// A database in memory holding the database or the export at `path`; an export's every
// field is checked (no machine code is kept).
Database load_tunings_into_memory(const std::string &path);

// Merges the database file at `path` into `db`: exported from its copy in memory, then
// imported with every check an export gets. Idempotent, as import is: a run already
// present (same uid) is skipped.
ImportSummary import_database_file(Database &db, const std::string &path, const CodeRebuilder *rebuilder);

}  // namespace sgemm_tune
