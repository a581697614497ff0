// RAII over the SQLite C API: a database, a prepared statement, a transaction that rolls
// back unless committed. Errors name the action, the SQL, the extended code and the file.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

struct sqlite3;
struct sqlite3_stmt;

namespace sgemm_tune {

class SqliteError : public std::runtime_error {
 public:
  SqliteError(const std::string &what, int code) : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }  // extended result code

 private:
  int code_;
};

class Statement;

class Database {
 public:
  // Opens (creating if needed) with WAL journaling and a busy timeout, so that several
  // tuners can share one file. Throws SqliteError.
  static Database open(const std::string &path, bool create = true);
  // Opens an existing file for reading only, changing nothing in it (not even the journal
  // mode): for looking at a file before deciding whether it is ours. Throws SqliteError.
  static Database open_read_only(const std::string &path);
  // A file from elsewhere, read only: nothing in it runs with trust (SQLite's defensive
  // mode, and functions in its schema are not trusted), and the file is never written.
  static Database open_untrusted(const std::string &path);
  ~Database();
  Database(Database &&o) noexcept;
  Database &operator=(Database &&o) noexcept;
  Database(const Database &) = delete;
  Database &operator=(const Database &) = delete;

  void exec(const std::string &sql);
  // Every page of this database into `to` (SQLite's online backup), replacing its content.
  void copy_into(Database &to);
  Statement prepare(const std::string &sql);
  std::int64_t last_insert_rowid() const;
  int changes() const;  // rows changed by the last statement
  const std::string &path() const { return path_; }
  sqlite3 *handle() const { return db_; }

  [[noreturn]] void fail(const std::string &action, const std::string &sql, int code) const;

 private:
  Database(sqlite3 *db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3 *db_ = nullptr;
  std::string path_;
};

class Statement {
 public:
  Statement(Database &db, const std::string &sql);
  ~Statement();
  Statement(Statement &&o) noexcept;
  Statement(const Statement &) = delete;
  Statement &operator=(const Statement &) = delete;
  Statement &operator=(Statement &&) = delete;

  // Parameters are numbered from 1, as in SQLite.
  template <typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
  Statement &bind(int index, T value) {
    return bind_int64(index, static_cast<std::int64_t>(value));
  }
  Statement &bind_int64(int index, std::int64_t value);
  Statement &bind(int index, double value);
  Statement &bind(int index, const std::string &value);
  Statement &bind(int index, const char *value) { return bind(index, std::string(value)); }
  Statement &bind_null(int index);
  Statement &bind_blob(int index, const std::string &bytes);
  template <typename T>
  Statement &bind(int index, const std::optional<T> &value) {
    return value ? bind(index, *value) : bind_null(index);
  }
  // By name, as the SQL writes it (":time_ms"): statements name their parameters rather
  // than count them, so that adding a column moves nothing.
  template <typename T>
  Statement &bind(const char *name, const T &value) {
    return bind(parameter(name), value);
  }
  Statement &bind_blob(const char *name, const std::string &bytes) { return bind_blob(parameter(name), bytes); }
  Statement &bind_null(const char *name) { return bind_null(parameter(name)); }
  // The index of a named parameter; throws SqliteError naming it when the SQL has none.
  int parameter(const char *name) const;

  // true while there is a row to read.
  bool step();
  // Runs a statement that returns no rows.
  void run() {
    while (step()) {
    }
  }

  // Columns are numbered from 0; column(name) finds one by the name the SELECT gives it
  // (throws SqliteError naming it when there is none).
  int column(const std::string &name) const;
  int column_count() const;
  std::string column_name(int column) const;
  enum class Type { integer, real, text, blob, null };
  Type column_type(int column) const;
  bool is_null(int column) const;
  std::int64_t column_int(int column) const;
  double column_double(int column) const;
  std::string column_text(int column) const;
  std::string column_blob(int column) const;
  // The same, by column name.
  bool is_null(const std::string &name) const { return is_null(column(name)); }
  std::int64_t column_int(const std::string &name) const { return column_int(column(name)); }
  double column_double(const std::string &name) const { return column_double(column(name)); }
  std::string column_text(const std::string &name) const { return column_text(column(name)); }
  std::string column_blob(const std::string &name) const { return column_blob(column(name)); }

 private:
  Database *db_;
  sqlite3_stmt *stmt_ = nullptr;
  std::string sql_;
};

class Transaction {
 public:
  // BEGIN IMMEDIATE: takes the write lock up front, so that a busy database makes the
  // writer wait (busy timeout) instead of failing at its first write.
  explicit Transaction(Database &db);
  ~Transaction();
  Transaction(const Transaction &) = delete;
  Transaction &operator=(const Transaction &) = delete;
  void commit();

 private:
  Database &db_;
  bool done_ = false;
};

}  // namespace sgemm_tune
