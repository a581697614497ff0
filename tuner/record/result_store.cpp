#include "tuner/record/result_store.h"

#include <cstdio>
#include <ctime>
#include <random>

#include "tuner/common/errors.h"
#include "tuner/common/hash.h"
#include "tuner/record/migrations.h"
#include "tuner/record/tile_columns.h"

namespace sgemm_tune {
namespace {

Database open_for_tuning(const std::string &path) {
  try {
    Database db = Database::open(path);
    migrate(db);
    return db;
  } catch (const SqliteError &e) {
    throw UserError("database " + path + " cannot be used: " + e.what());
  }
}

// Parameters ?1-?4: run and shape; then the tile columns; then the rest from kFirstAfterTile.
constexpr int kFirstAfterTile = 5 + static_cast<int>(kTileColumns.size());

std::string insert_result_sql() {
  std::string sql = "INSERT INTO results (run_id, m, n, k, " + tile_column_list() +
                    ", status, reason, detail, threads, registers, spill_bytes, smem_bytes, blocks_per_sm, "
                    "runtime_blocks_per_sm, occupancy, time_ms, tflops, cublas_ms, cublas_tflops, error_beta0, "
                    "error_beta, compile_seconds, measured_at, repeats) VALUES (?1, ?2, ?3, ?4, " +
                    tile_placeholders(5);
  for (int i = kFirstAfterTile; i < kFirstAfterTile + 19; ++i) sql += ", ?" + std::to_string(i);
  return sql + ")";
}

}  // namespace

std::string Fingerprint::hash() const {
  std::uint64_t h = fnv1a64("sgemm-tune fingerprint");
  for (const std::string *part : {&template_hash, &compile_options, &nvrtc_version, &driver_version, &gpu_name,
                                  &compute_capability, &tuner_version}) {
    h = fnv1a64(*part, h);
    h = fnv1a64(std::string_view("\0", 1), h);
  }
  return to_hex(h);
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string random_uid() {
  std::random_device rd;
  std::string out;
  for (int i = 0; i < 4; ++i) {
    char buf[9];
    std::snprintf(buf, sizeof buf, "%08x", static_cast<unsigned>(rd()));
    out += buf;
  }
  return out;
}

ResultStore::ResultStore(const std::string &path) : db_(open_for_tuning(path)) {}

std::int64_t ResultStore::begin_run(const RunProvenance &run) {
  const Fingerprint &f = run.fingerprint;
  Statement st = db_.prepare(R"(
    INSERT INTO runs (uid, started_at, command, tuner_version, space_name, space_source, space_hash, gpu_name,
                      compute_capability, sm_count, clock_mhz, driver_version, runtime_version, nvrtc_version,
                      compile_options, template_origin, template_hash, fingerprint)
    VALUES (?18, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17))");
  st.bind(1, utc_now()).bind(2, run.command).bind(3, f.tuner_version).bind(4, run.space_name);
  st.bind(5, run.space_source).bind(6, run.space_hash).bind(7, f.gpu_name).bind(8, f.compute_capability);
  st.bind(9, run.sm_count).bind(10, run.clock_mhz).bind(11, f.driver_version).bind(12, run.runtime_version);
  st.bind(13, f.nvrtc_version).bind(14, f.compile_options).bind(15, run.template_origin);
  st.bind(16, f.template_hash).bind(17, f.hash()).bind(18, random_uid());
  st.run();
  return db_.last_insert_rowid();
}

void ResultStore::finish_run(std::int64_t run_id, bool succeeded) {
  Statement st = db_.prepare("UPDATE runs SET finished_at = ?1, status = ?2 WHERE id = ?3");
  st.bind(1, utc_now()).bind(2, succeeded ? "finished" : "failed").bind(3, run_id);
  st.run();
}

void ResultStore::insert(std::int64_t run_id, const ResultRow &r) {
  static const std::string sql = insert_result_sql();
  Statement st = db_.prepare(sql);
  st.bind(1, run_id).bind(2, r.shape.M).bind(3, r.shape.N).bind(4, r.shape.K);
  bind_tile(st, 5, r.tile);
  const int f = kFirstAfterTile;
  st.bind(f, std::string(to_string(r.status)));
  if (r.reason.empty()) st.bind_null(f + 1); else st.bind(f + 1, r.reason);
  if (r.detail.empty()) st.bind_null(f + 2); else st.bind(f + 2, r.detail);
  st.bind(f + 3, r.threads).bind(f + 4, r.registers).bind(f + 5, r.spill_bytes).bind(f + 6, r.smem_bytes);
  st.bind(f + 7, r.blocks_per_sm).bind(f + 8, r.runtime_blocks_per_sm).bind(f + 9, r.occupancy);
  st.bind(f + 10, r.time_ms).bind(f + 11, r.tflops).bind(f + 12, r.cublas_ms).bind(f + 13, r.cublas_tflops);
  st.bind(f + 14, r.error_beta0).bind(f + 15, r.error_beta).bind(f + 16, r.compile_seconds);
  st.bind(f + 17, utc_now()).bind(f + 18, r.repeats);
  st.run();
}

void ResultStore::record(std::int64_t run_id, const ResultRow &row) {
  Transaction tx(db_);
  insert(run_id, row);
  tx.commit();
}

std::vector<PriorResult> ResultStore::prior_results(const std::string &fingerprint) {
  Statement st = db_.prepare("SELECT x.m, x.n, x.k, " + tile_column_list("x.") + R"(, x.status,
           COALESCE(x.time_ms, 0), COALESCE(x.registers, 0), COALESCE(x.blocks_per_sm, 0),
           MAX(COALESCE(x.error_beta0, 0), COALESCE(x.error_beta, 0))
    FROM results x JOIN runs r ON r.id = x.run_id
    WHERE r.fingerprint = ?1 AND x.status IN ('ok', 'wrong_result', 'launch_failed', 'compile_failed')
    ORDER BY x.status = 'ok' DESC, x.time_ms)");
  const int f = 3 + static_cast<int>(kTileColumns.size());
  st.bind(1, fingerprint);
  std::vector<PriorResult> out;
  while (st.step()) {
    PriorResult p;
    p.shape = Shape{st.column_int(0), st.column_int(1), st.column_int(2)};
    p.tile = read_tile(st, 3);
    p.status = status_from_string(st.column_text(f)).value_or(CandidateStatus::launch_failed);
    p.time_ms = st.column_double(f + 1);
    p.registers = static_cast<int>(st.column_int(f + 2));
    p.blocks_per_sm = static_cast<int>(st.column_int(f + 3));
    p.error = st.column_double(f + 4);
    out.push_back(p);
  }
  return out;
}

void ResultStore::record_kernel(const std::string &fingerprint, const SgemmTile &tile, const std::string &lowered_name,
                                const std::string &cubin) {
  const int f = 2 + static_cast<int>(kTileColumns.size());
  Statement st = db_.prepare("INSERT OR IGNORE INTO kernels (fingerprint, " + tile_column_list() +
                             ", lowered_name, cubin) VALUES (?1, " + tile_placeholders(2) + ", ?" + std::to_string(f) +
                             ", ?" + std::to_string(f + 1) + ")");
  st.bind(1, fingerprint);
  bind_tile(st, 2, tile);
  st.bind(f, lowered_name).bind_blob(f + 1, cubin);
  st.run();
}

void ResultStore::record_all(std::int64_t run_id, const std::vector<ResultRow> &rows) {
  Transaction tx(db_);
  for (const auto &row : rows) insert(run_id, row);
  tx.commit();
}

}  // namespace sgemm_tune
