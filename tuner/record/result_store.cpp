#include "tuner/record/result_store.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <random>

#include <unistd.h>

#include "tuner/common/errors.h"
#include "tuner/common/hash.h"
#include "tuner/record/migrations.h"
#include "tuner/record/shape_columns.h"
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

// The result columns after the run, the shape and the tile, each bound by its own name.
constexpr const char *kResultColumns[] = {"status",      "reason",        "detail",        "threads",
                                          "registers",   "spill_bytes",   "smem_bytes",    "blocks_per_sm",
                                          "runtime_blocks_per_sm", "occupancy", "time_ms", "tflops",
                                          "cublas_ms",   "cublas_tflops", "error_beta0",   "error_beta",
                                          "compile_seconds", "measured_at", "repeats",
                                          "device",      "pci_bus_id"};

std::string insert_result_sql() {
  std::string names, values;
  for (const char *c : kResultColumns) {
    names += std::string(", ") + c;
    values += std::string(", :") + c;
  }
  // A pruned outcome already recorded under the run's fingerprint is not stored again:
  // it follows from the tile, the shape and the same kernel and compiler.
  return "INSERT INTO results (run_id, " + shape_column_list() + ", " + tile_column_list() + names +
         ") SELECT :run_id, :m, :n, :k, :operands, " + tile_placeholders() + values +
         " WHERE :status <> 'pruned' OR NOT EXISTS (" +
         "SELECT 1 FROM results x JOIN runs r ON r.id = x.run_id WHERE r.fingerprint = "
         "(SELECT fingerprint FROM runs WHERE id = :run_id) AND " + shape_column_match("x.") + " AND " +
         tile_column_match("x.") + " AND x.status = 'pruned' AND x.reason IS :reason)";
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

}  // namespace

std::string Fingerprint::hash() const {
  std::uint64_t h = fnv1a64("sgemm-tune fingerprint");
  for (const std::string *part : {&template_hash, &compile_options, &nvrtc_version, &driver_version, &gpu_name,
                                  &compute_capability, &tuner_version}) {
    h = fnv1a64(*part, h);
    h = fnv1a64(std::string_view("\0", 1), h);
  }
  if (timing_method == "graphs") h = fnv1a64(std::string_view("timing graphs\0", 14), h);
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
  const std::string host = host_name();
  mark_interrupted_runs(host);
  Statement st = db_.prepare(R"(
    INSERT INTO runs (uid, started_at, command, tuner_version, space_name, space_source, space_hash, gpu_name,
                      compute_capability, sm_count, clock_mhz, driver_version, runtime_version, nvrtc_version,
                      compile_options, template_origin, template_hash, fingerprint, host, pid, timing_method)
    VALUES (:uid, :started_at, :command, :tuner_version, :space_name, :space_source, :space_hash, :gpu_name,
            :compute_capability, :sm_count, :clock_mhz, :driver_version, :runtime_version, :nvrtc_version,
            :compile_options, :template_origin, :template_hash, :fingerprint, :host, :pid, :timing_method))");
  st.bind(":uid", random_uid()).bind(":started_at", utc_now()).bind(":command", run.command);
  st.bind(":tuner_version", f.tuner_version).bind(":space_name", run.space_name);
  st.bind(":space_source", run.space_source).bind(":space_hash", run.space_hash).bind(":gpu_name", f.gpu_name);
  st.bind(":compute_capability", f.compute_capability).bind(":sm_count", run.sm_count);
  st.bind(":clock_mhz", run.clock_mhz).bind(":driver_version", f.driver_version);
  st.bind(":runtime_version", run.runtime_version).bind(":nvrtc_version", f.nvrtc_version);
  st.bind(":compile_options", f.compile_options).bind(":template_origin", run.template_origin);
  st.bind(":template_hash", f.template_hash).bind(":fingerprint", f.hash());
  st.bind(":host", host).bind(":pid", static_cast<std::int64_t>(getpid()));
  st.bind(":timing_method", f.timing_method.empty() ? std::string("stream") : f.timing_method);
  st.run();
  return db_.last_insert_rowid();
}

void ResultStore::mark_interrupted_runs(const std::string &host) {
  // Only this host's processes can be asked whether they still live; a run elsewhere may
  // be writing to the same file right now.
  Statement st = db_.prepare("SELECT id, pid FROM runs WHERE status = 'running' AND host = :host AND pid IS NOT NULL");
  st.bind(":host", host);
  std::vector<std::int64_t> dead;
  while (st.step()) {
    const auto pid = static_cast<pid_t>(st.column_int("pid"));
    if (pid > 0 && kill(pid, 0) != 0 && errno == ESRCH) dead.push_back(st.column_int("id"));
  }
  for (const std::int64_t id : dead) {
    Statement up = db_.prepare(
        "UPDATE runs SET status = 'interrupted', finished_at = :now WHERE id = :id AND status = 'running'");
    up.bind(":now", utc_now()).bind(":id", id).run();
  }
}

void ResultStore::finish_run(std::int64_t run_id, bool succeeded, const std::string &counts_json) {
  Statement st = db_.prepare("UPDATE runs SET finished_at = :now, status = :status, counts = :counts WHERE id = :id");
  st.bind(":now", utc_now()).bind(":status", succeeded ? "finished" : "failed").bind(":id", run_id);
  if (counts_json.empty()) st.bind_null(":counts"); else st.bind(":counts", counts_json);
  st.run();
}

void ResultStore::insert(std::int64_t run_id, const ResultRow &r) {
  // Invalid outcomes follow from the rules and the shape: counted by the run, not stored.
  if (r.status == CandidateStatus::invalid) return;
  static const std::string sql = insert_result_sql();
  Statement st = db_.prepare(sql);
  st.bind(":run_id", run_id);
  bind_shape(st, r.shape);
  bind_tile(st, r.tile);
  st.bind(":status", std::string(to_string(r.status)));
  if (r.reason.empty()) st.bind_null(":reason"); else st.bind(":reason", r.reason);
  if (r.detail.empty()) st.bind_null(":detail"); else st.bind(":detail", r.detail);
  st.bind(":threads", r.threads).bind(":registers", r.registers).bind(":spill_bytes", r.spill_bytes);
  st.bind(":smem_bytes", r.smem_bytes).bind(":blocks_per_sm", r.blocks_per_sm);
  st.bind(":runtime_blocks_per_sm", r.runtime_blocks_per_sm).bind(":occupancy", r.occupancy);
  st.bind(":time_ms", r.time_ms).bind(":tflops", r.tflops).bind(":cublas_ms", r.cublas_ms);
  st.bind(":cublas_tflops", r.cublas_tflops).bind(":error_beta0", r.error_beta0).bind(":error_beta", r.error_beta);
  st.bind(":compile_seconds", r.compile_seconds).bind(":measured_at", utc_now()).bind(":repeats", r.repeats);
  st.bind(":device", r.device);
  if (r.pci_bus_id.empty()) st.bind_null(":pci_bus_id"); else st.bind(":pci_bus_id", r.pci_bus_id);
  st.run();
}

void ResultStore::record(std::int64_t run_id, const ResultRow &row) {
  Transaction tx(db_);
  insert(run_id, row);
  tx.commit();
}

std::vector<PriorResult> ResultStore::prior_results(const std::string &fingerprint) {
  Statement st = db_.prepare("SELECT " + shape_column_list("x.") + ", " + tile_column_list("x.") + R"(, x.status,
           COALESCE(x.time_ms, 0) AS time_ms, COALESCE(x.registers, 0) AS registers,
           COALESCE(x.blocks_per_sm, 0) AS blocks_per_sm,
           MAX(COALESCE(x.error_beta0, 0), COALESCE(x.error_beta, 0)) AS error
    FROM results x JOIN runs r ON r.id = x.run_id
    WHERE r.fingerprint = :fingerprint AND x.status IN ('ok', 'wrong_result', 'launch_failed', 'compile_failed')
    ORDER BY x.status = 'ok' DESC, x.time_ms)");
  st.bind(":fingerprint", fingerprint);
  std::vector<PriorResult> out;
  while (st.step()) {
    PriorResult p;
    p.shape = read_shape(st);
    p.tile = read_tile(st);
    p.status = status_from_string(st.column_text("status")).value_or(CandidateStatus::launch_failed);
    p.time_ms = st.column_double("time_ms");
    p.registers = static_cast<int>(st.column_int("registers"));
    p.blocks_per_sm = static_cast<int>(st.column_int("blocks_per_sm"));
    p.error = st.column_double("error");
    out.push_back(p);
  }
  return out;
}

void ResultStore::record_kernel(const std::string &fingerprint, const SgemmTile &tile, const std::string &lowered_name,
                                const std::string &cubin) {
  Statement st = db_.prepare("INSERT OR IGNORE INTO kernels (fingerprint, " + tile_column_list() +
                             ", lowered_name, cubin) VALUES (:fingerprint, " + tile_placeholders() +
                             ", :lowered_name, :cubin)");
  st.bind(":fingerprint", fingerprint).bind(":lowered_name", lowered_name).bind_blob(":cubin", cubin);
  bind_tile(st, tile);
  st.run();
}

void ResultStore::record_all(std::int64_t run_id, const std::vector<ResultRow> &rows) {
  Transaction tx(db_);
  for (const auto &row : rows) insert(run_id, row);
  tx.commit();
}

}  // namespace sgemm_tune
