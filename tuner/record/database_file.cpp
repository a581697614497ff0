#include "tuner/record/database_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "tuner/common/errors.h"
#include "tuner/record/migrations.h"

namespace sgemm_tune {

nlohmann::json read_json_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(path + ": cannot open: " + std::strerror(errno));
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error &e) {
    throw UserError(path + ": malformed JSON at byte " + std::to_string(e.byte));
  } catch (const nlohmann::json::exception &e) {
    throw UserError(path + ": unreadable JSON: " + e.what());
  }
}

bool is_sqlite_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  char header[16] = {};
  in.read(header, sizeof header);
  return in.gcount() == sizeof header && std::memcmp(header, "SQLite format 3", 16) == 0;
}

Database copy_database_into_memory(const std::string &path) {
  try {
    Database source = Database::open_untrusted(path);
    Database copy = Database::open(":memory:");
    source.copy_into(copy);
    migrate(copy);
    return copy;
  } catch (const SqliteError &e) {
    throw UserError("database " + path + " cannot be read: " + e.what());
  }
}

Database load_tunings_into_memory(const std::string &path) {
  if (is_sqlite_file(path)) return copy_database_into_memory(path);
  const nlohmann::json doc = read_json_file(path);
  Database db = Database::open(":memory:");
  migrate(db);
  import_database(db, doc, path, nullptr);
  return db;
}

ImportSummary import_database_file(Database &db, const std::string &path, const CodeRebuilder *rebuilder) {
  Database copy = copy_database_into_memory(path);
  nlohmann::json doc;
  try {
    doc = export_database(copy);
  } catch (const SqliteError &e) {
    throw UserError("database " + path + " cannot be read: " + e.what());
  }
  return import_database(db, doc, path, rebuilder);
}

}  // namespace sgemm_tune
