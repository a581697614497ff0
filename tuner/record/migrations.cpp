#include "tuner/record/migrations.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "tuner/common/embedded_files.h"
#include "tuner/common/errors.h"

namespace sgemm_tune {
namespace {

struct Migration {
  int version;
  const EmbeddedFile *file;
};

std::vector<Migration> migrations() {
  std::vector<Migration> out;
  for (const auto &file : migration_files::embedded_files()) out.push_back({std::atoi(file.name), &file});
  std::sort(out.begin(), out.end(), [](const Migration &a, const Migration &b) { return a.version < b.version; });
  return out;
}

int user_version(Database &db) {
  Statement st = db.prepare("PRAGMA user_version");
  st.step();
  return static_cast<int>(st.column_int(0));
}

}  // namespace

int latest_schema_version() {
  const auto all = migrations();
  return all.empty() ? 0 : all.back().version;
}

void migrate(Database &db) {
  int current = user_version(db);
  const int latest = latest_schema_version();
  if (current > latest)
    throw UserError(db.path() + " was written by a newer sgemm-tune (schema version " + std::to_string(current) +
                    "; this build knows up to " + std::to_string(latest) + "): upgrade sgemm-tune to use it");
  if (current == latest) return;
  // A migration may rebuild a table that others reference (SQLite's way to change a
  // constraint): foreign keys are off while it runs, and checked before it commits.
  db.exec("PRAGMA foreign_keys = OFF");
  struct KeysBackOn {
    Database &db;
    ~KeysBackOn() {
      try {
        db.exec("PRAGMA foreign_keys = ON");
      } catch (...) {
      }
    }
  } keys_back_on{db};
  for (const Migration &m : migrations()) {
    if (m.version <= current) continue;
    Transaction tx(db);
    // Another process may have migrated while this one waited for the write lock.
    if (user_version(db) >= m.version) continue;
    db.exec(m.file->content);
    Statement broken = db.prepare("PRAGMA foreign_key_check");
    if (broken.step())
      throw UserError(db.path() + ": migrating to schema version " + std::to_string(m.version) +
                      " would leave rows of " + broken.column_text(0) + " without their run");
    db.exec("PRAGMA user_version = " + std::to_string(m.version));
    tx.commit();
    current = m.version;
  }
}

}  // namespace sgemm_tune
