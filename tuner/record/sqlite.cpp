#include "tuner/record/sqlite.h"

#include <utility>

#include <sqlite3.h>

namespace sgemm_tune {

namespace {

// A connection with extended result codes and a busy timeout. Throws SqliteError.
sqlite3 *open_connection(const std::string &path, int flags) {
  sqlite3 *db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    const std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    throw SqliteError("cannot open database " + path + ": " + msg, rc);
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, 30000);
  return db;
}

}  // namespace

Database Database::open(const std::string &path, bool create) {
  Database out(open_connection(path, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)), path);
  // The first read of the file: a file that is not a database fails here.
  out.exec("PRAGMA journal_mode = WAL");
  out.exec("PRAGMA synchronous = NORMAL");
  out.exec("PRAGMA foreign_keys = ON");
  return out;
}

Database Database::open_read_only(const std::string &path) {
  Database out(open_connection(path, SQLITE_OPEN_READONLY), path);
  // The first read of the file: a file that is not a database fails here.
  out.exec("PRAGMA schema_version");
  return out;
}

Database Database::open_untrusted(const std::string &path) {
  sqlite3 *db = open_connection(path, SQLITE_OPEN_READONLY);
  Database out(db, path);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  // The first read of the file: a file that is not a database fails here.
  out.exec("SELECT count(*) FROM sqlite_schema");
  return out;
}

void Database::copy_into(Database &to) {
  sqlite3_backup *backup = sqlite3_backup_init(to.db_, "main", db_, "main");
  if (!backup) to.fail("copying " + path_, "", sqlite3_extended_errcode(to.db_));
  const int rc = sqlite3_backup_step(backup, -1);
  sqlite3_backup_finish(backup);
  if (rc != SQLITE_DONE) fail("copying into " + to.path_, "", rc);
}

Database::~Database() {
  if (db_) sqlite3_close(db_);
}

Database::Database(Database &&o) noexcept : db_(std::exchange(o.db_, nullptr)), path_(std::move(o.path_)) {}

Database &Database::operator=(Database &&o) noexcept {
  if (this != &o) {
    if (db_) sqlite3_close(db_);
    db_ = std::exchange(o.db_, nullptr);
    path_ = std::move(o.path_);
  }
  return *this;
}

void Database::fail(const std::string &action, const std::string &sql, int code) const {
  std::string what = action + " failed on " + path_ + ": " + sqlite3_errmsg(db_) + " (" + sqlite3_errstr(code) +
                     ", code " + std::to_string(code) + ")";
  if (!sql.empty()) what += " in: " + sql;
  throw SqliteError(what, code);
}

void Database::exec(const std::string &sql) {
  char *err = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
  sqlite3_free(err);
  if (rc != SQLITE_OK) fail("executing SQL", sql, sqlite3_extended_errcode(db_));
}

Statement Database::prepare(const std::string &sql) { return Statement(*this, sql); }

std::int64_t Database::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }

int Database::changes() const { return sqlite3_changes(db_); }

Statement::Statement(Database &db, const std::string &sql) : db_(&db), sql_(sql) {
  const int rc = sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt_, nullptr);
  if (rc != SQLITE_OK) db.fail("preparing a statement", sql, sqlite3_extended_errcode(db.handle()));
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement::Statement(Statement &&o) noexcept
    : db_(o.db_), stmt_(std::exchange(o.stmt_, nullptr)), sql_(std::move(o.sql_)) {}

Statement &Statement::bind_int64(int index, std::int64_t value) {
  const int rc = sqlite3_bind_int64(stmt_, index, value);
  if (rc != SQLITE_OK) db_->fail("binding parameter " + std::to_string(index), sql_, rc);
  return *this;
}

Statement &Statement::bind(int index, double value) {
  const int rc = sqlite3_bind_double(stmt_, index, value);
  if (rc != SQLITE_OK) db_->fail("binding parameter " + std::to_string(index), sql_, rc);
  return *this;
}

Statement &Statement::bind(int index, const std::string &value) {
  const int rc = sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) db_->fail("binding parameter " + std::to_string(index), sql_, rc);
  return *this;
}

Statement &Statement::bind_blob(int index, const std::string &bytes) {
  const int rc = sqlite3_bind_blob(stmt_, index, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) db_->fail("binding parameter " + std::to_string(index), sql_, rc);
  return *this;
}

Statement &Statement::bind_null(int index) {
  const int rc = sqlite3_bind_null(stmt_, index);
  if (rc != SQLITE_OK) db_->fail("binding parameter " + std::to_string(index), sql_, rc);
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) {
    sqlite3_reset(stmt_);
    return false;
  }
  const int code = sqlite3_extended_errcode(db_->handle());
  sqlite3_reset(stmt_);
  db_->fail("running a statement", sql_, code);
}

std::string Statement::column_blob(int column) const {
  const auto *data = static_cast<const char *>(sqlite3_column_blob(stmt_, column));
  return data ? std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))) : std::string();
}

int Statement::parameter(const char *name) const {
  const int index = sqlite3_bind_parameter_index(stmt_, name);
  if (index == 0) db_->fail(std::string("binding parameter ") + name + " (the statement has none of that name)", sql_,
                            SQLITE_RANGE);
  return index;
}

int Statement::column(const std::string &name) const {
  for (int c = 0; c < column_count(); ++c)
    if (column_name(c) == name) return c;
  db_->fail("reading column " + name + " (the statement has none of that name)", sql_, SQLITE_RANGE);
}

int Statement::column_count() const { return sqlite3_column_count(stmt_); }

std::string Statement::column_name(int column) const {
  const char *name = sqlite3_column_name(stmt_, column);
  return name ? name : "";
}

Statement::Type Statement::column_type(int column) const {
  switch (sqlite3_column_type(stmt_, column)) {
    case SQLITE_INTEGER: return Type::integer;
    case SQLITE_FLOAT: return Type::real;
    case SQLITE_TEXT: return Type::text;
    case SQLITE_BLOB: return Type::blob;
    default: return Type::null;
  }
}

bool Statement::is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
std::int64_t Statement::column_int(int column) const { return sqlite3_column_int64(stmt_, column); }
double Statement::column_double(int column) const { return sqlite3_column_double(stmt_, column); }
std::string Statement::column_text(int column) const {
  const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(stmt_, column));
  return text ? std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))) : std::string();
}

Transaction::Transaction(Database &db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  if (!done_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_.exec("COMMIT");
  done_ = true;
}

}  // namespace sgemm_tune
