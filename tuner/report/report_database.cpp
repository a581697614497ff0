#include "tuner/report/report_database.h"

#include <filesystem>

#include "tuner/common/errors.h"
#include "tuner/common/text.h"
#include "tuner/query/environment.h"

namespace sgemm_tune {
namespace {

// A database with tables but no schema version was made by something else: migrating it
// would add our tables to someone else's file.
void refuse_foreign(const std::string &path) {
  std::string tables;
  {
    Database db = Database::open_read_only(path);
    Statement version = db.prepare("PRAGMA user_version");
    version.step();
    if (version.column_int(0) != 0) return;
    Statement st = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name LIMIT 4");
    while (st.step()) tables += (tables.empty() ? "" : ", ") + terminal_safe(st.column_text(0));
  }
  if (tables.empty()) throw UserError(path + " is an empty database: it holds no tuning runs to report on");
  throw UserError(path + " is not an sgemm-tune database (it has tables " + tables +
                  " but no sgemm-tune schema version)");
}

}  // namespace

Database open_report_database(const std::string &path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw UserError("no database at " + path + " (tune first, or name one with --db)");
  try {
    refuse_foreign(path);
  } catch (const SqliteError &e) {
    throw UserError("database " + path + " cannot be used: " + e.what());
  }
  return open_existing_database(path);
}

}  // namespace sgemm_tune
