// Schema migrations: db/migrations/NNNN_name.sql, embedded in the binary, applied in
// order, each in one transaction that also sets PRAGMA user_version to its number. A
// database whose version is newer than the newest migration is refused, not used.
#pragma once

#include "tuner/record/sqlite.h"

namespace sgemm_tune {

int latest_schema_version();
// Throws UserError for a newer or unreadable database.
void migrate(Database &db);

}  // namespace sgemm_tune
