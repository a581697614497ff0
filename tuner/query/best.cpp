#include "tuner/query/best.h"

#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "tuner/compile/arch.h"
#include "tuner/compile/nvrtc_compiler.h"
#include "tuner/common/errors.h"
#include "tuner/common/text.h"
#include "tuner/record/row_checks.h"
#include "tuner/space/settings.h"
#include "tuner/record/shape_columns.h"
#include "tuner/record/tile_columns.h"

namespace sgemm_tune {
namespace {

struct Row {
  BestEntry entry;
  std::string started_at;
};

// A database file may have come from elsewhere: what its rows say is checked as an
// import checks it before anything is printed, ranked or emitted from it.
void check_entry(const BestEntry &e, const std::string &database) {
  const std::string where = database + ": run " + std::to_string(e.run_id) + ", result at " + e.shape.to_string();
  const auto fail = [&](const std::string &what) { throw UserError(where + ": " + what); };
  const std::int64_t int_max = std::numeric_limits<int>::max();
  if (e.shape.M < 1 || e.shape.N < 1 || e.shape.K < 1 || e.shape.M > int_max || e.shape.N > int_max ||
      e.shape.K > int_max)
    fail("the shape is out of range");
  if (!is_valid_tile(e.tile)) fail("tile " + describe_tile(e.tile) + " breaks the kernel's validity rules");
  if (!is_compute_capability(e.compute_capability)) fail("compute capability is not digits.digits");
  for (double v : {e.time_ms, e.tflops, e.cublas_ms})
    if (!std::isfinite(v) || v <= 0 || v > 1e12) fail("a time or rate is not a positive finite number");
  const Fingerprint &f = e.fingerprint;
  for (const std::string *text : {&e.gpu_name, &e.measured_at, &e.fingerprint_hash, &f.template_hash,
                                  &f.compile_options, &f.nvrtc_version, &f.driver_version, &f.tuner_version})
    if (!is_plain_text(*text, kMaxLongTextBytes)) fail("a name or version holds control characters or is too long");
}

// The entry's tile at the shape of most work it was timed at under the entry's fingerprint
// on the entry's GPU (the fastest result there): where its blocks ran full waves, the rate
// the selection scales from (sgemm_tuned_select.h). Left empty when none passes the checks.
void find_rate_reference(Database &db, BestEntry &e) {
  // Plain shapes only: a BLAS shape may have run on an edge kernel.
  Statement st = db.prepare("SELECT x.m, x.n, x.k, x.tflops FROM results x JOIN runs r ON r.id = x.run_id "
                            "WHERE x.status = 'ok' AND x.time_ms > 0 AND x.tflops > 0 AND r.gpu_name = :gpu "
                            "AND x.operands = '' "
                            "AND r.fingerprint = :fingerprint AND " +
                            tile_column_match("x.") +
                            " ORDER BY 1.0 * x.m * x.n * x.k DESC, x.tflops DESC LIMIT 1");
  st.bind(":gpu", e.gpu_name).bind(":fingerprint", e.fingerprint_hash);
  bind_tile(st, e.tile);
  if (!st.step()) return;
  const Shape s{st.column_int("m"), st.column_int("n"), st.column_int("k")};
  const double tflops = st.column_double("tflops");
  const std::int64_t int_max = std::numeric_limits<int>::max();
  // Figures a database could hold but no run records (the tile times only shapes it
  // divides) are not taken: the entry's own result serves instead.
  if (s.M < 1 || s.N < 1 || s.K < 1 || s.M > int_max || s.N > int_max || s.K > int_max || !std::isfinite(tflops) ||
      tflops <= 0 || tflops > 1e12 || !sgemm_tune_kernels::shape_fits_tile(e.tile, s.M, s.N, s.K))
    return;
  e.rate_shape = s;
  e.rate_tflops = tflops;
}

}  // namespace

Fingerprint CurrentEnvironment::fingerprint_for(const std::string &gpu, const std::string &cc) const {
  CompileOptions options;
  options.arch = sm_arch(cc);
  options.extra = extra_compile_options;
  Fingerprint f;
  f.template_hash = template_hash;
  f.compile_options = options.to_string();
  f.nvrtc_version = nvrtc_version;
  f.tuner_version = tuner_version;
  f.gpu_name = gpu;
  f.compute_capability = cc;
  // The driver is known only for the GPU in hand.
  f.driver_version = gpu == gpu_name ? driver_version : "";
  return f;
}

sgemm_tune_kernels::TunedShape tuned_shape(const BestEntry &e) {
  const unsigned ops = !e.shape.blas ? 0u
                                     : sgemm_tune_kernels::kBlasOpsRecorded |
                                           (e.shape.trans_a ? sgemm_tune_kernels::kBlasTransA : 0u) |
                                           (e.shape.trans_b ? sgemm_tune_kernels::kBlasTransB : 0u) |
                                           (e.shape.col_major ? sgemm_tune_kernels::kBlasColMajor : 0u);
  return sgemm_tune_kernels::TunedShape{e.shape.M,         e.shape.N,         e.shape.K,         e.tile,
                                        e.percent_of_cublas, e.tflops,        e.blocks_per_sm,   e.rate_shape.M,
                                        e.rate_shape.N,      e.rate_shape.K,  e.rate_tflops,     e.shape.blas,
                                        ops};
}

std::vector<std::string> tuned_gpus(Database &db) {
  std::vector<std::string> out;
  Statement st = db.prepare(
      "SELECT DISTINCT r.gpu_name FROM results x JOIN runs r ON r.id = x.run_id WHERE x.status = 'ok' ORDER BY 1");
  while (st.step()) out.push_back(st.column_text("gpu_name"));
  return out;
}

std::vector<BestEntry> best_entries(Database &db, const CurrentEnvironment &env) {
  Statement st = db.prepare("SELECT r.gpu_name, r.compute_capability, " + shape_column_list("x.") + ", " +
                            tile_column_list("x.") + R"(,
           x.time_ms, x.tflops, x.cublas_ms, x.measured_at, r.id AS run_id,
           COALESCE(NULLIF(x.runtime_blocks_per_sm, 0), x.blocks_per_sm, 0) AS resident_blocks,
           r.template_hash, r.compile_options,
           r.nvrtc_version, r.driver_version, r.tuner_version, r.timing_method, r.fingerprint, r.started_at
    FROM results x JOIN runs r ON r.id = x.run_id
    WHERE x.status = 'ok' AND x.time_ms > 0
    ORDER BY r.gpu_name, x.m, x.n, x.k, x.operands, x.time_ms, r.id)");

  using Key = std::tuple<std::string, std::string, Shape>;
  std::map<Key, std::vector<Row>> groups;
  while (st.step()) {
    Row row;
    BestEntry &e = row.entry;
    e.gpu_name = st.column_text("gpu_name");
    e.compute_capability = st.column_text("compute_capability");
    e.tile = read_tile(st);
    try {
      e.shape = read_shape(st);
    } catch (const UserError &error) {
      throw UserError(db.path() + ": run " + std::to_string(st.column_int("run_id")) + ": " + error.what());
    }
    e.time_ms = st.column_double("time_ms");
    e.tflops = st.column_double("tflops");
    e.cublas_ms = st.column_double("cublas_ms");
    const std::int64_t resident = st.column_int("resident_blocks");
    e.blocks_per_sm = resident > 0 && resident <= 1024 ? static_cast<int>(resident) : 0;
    e.percent_of_cublas = e.time_ms > 0 ? 100.0 * e.cublas_ms / e.time_ms : 0;
    e.measured_at = st.column_text("measured_at");
    e.run_id = st.column_int("run_id");
    e.fingerprint.template_hash = st.column_text("template_hash");
    e.fingerprint.compile_options = st.column_text("compile_options");
    e.fingerprint.nvrtc_version = st.column_text("nvrtc_version");
    e.fingerprint.driver_version = st.column_text("driver_version");
    e.fingerprint.gpu_name = e.gpu_name;
    e.fingerprint.compute_capability = e.compute_capability;
    e.fingerprint.tuner_version = st.column_text("tuner_version");
    e.fingerprint.timing_method = st.column_text("timing_method");
    e.fingerprint_hash = st.column_text("fingerprint");
    row.started_at = st.column_text("started_at");
    check_entry(e, db.path());
    groups[Key{e.gpu_name, e.compute_capability, e.shape}].push_back(std::move(row));
  }

  std::vector<BestEntry> out;
  for (auto &[key, rows] : groups) {
    const Fingerprint current = env.fingerprint_for(std::get<0>(key), std::get<1>(key));
    // Prefer a current fingerprint (this environment's, under either timing method); of
    // those, or where none is current of all, the newest run's fingerprint answers with its
    // fastest row. One fingerprint, one way of timing: rows timed back to back and rows
    // timed as graphs are never ranked against each other.
    Fingerprint current_graphs = current;
    current_graphs.timing_method = timing_method_name(TimingMethod::graphs);
    const std::string current_hashes[] = {current.hash(), current_graphs.hash()};
    const auto is_current = [&](const Row &r) {
      return !current.driver_version.empty() &&
             (r.entry.fingerprint_hash == current_hashes[0] || r.entry.fingerprint_hash == current_hashes[1]);
    };
    bool any_current = false;
    for (const Row &r : rows) any_current = any_current || is_current(r);
    std::string newest;
    for (const Row &r : rows)
      if (!any_current || is_current(r)) newest = std::max(newest, r.started_at + "#" + r.entry.fingerprint_hash);
    const Row *chosen = nullptr;
    for (const Row &r : rows)
      if (r.started_at + "#" + r.entry.fingerprint_hash == newest) {
        chosen = &r;
        break;
      }
    // Among that fingerprint's rows, the fastest (rows are ordered by time).
    for (const Row &r : rows)
      if (r.entry.fingerprint_hash == chosen->entry.fingerprint_hash) {
        chosen = &r;
        break;
      }
    BestEntry e = chosen->entry;
    const Fingerprint &f = e.fingerprint;
    const auto compare = [&](const char *part, const std::string &recorded, const std::string &now,
                             const char *why_unknown) {
      if (now.empty())
        e.unchecked.push_back(std::string(part) + " (" + why_unknown + ")");
      else if (recorded != now)
        e.changes.push_back(FingerprintChange{part, recorded, now});
    };
    compare("template", f.template_hash, current.template_hash, "unknown");
    compare("compile options", f.compile_options, current.compile_options, "unknown");
    compare("NVRTC", f.nvrtc_version, current.nvrtc_version, "unknown");
    compare("tuner", f.tuner_version, current.tuner_version, "unknown");
    compare("driver", f.driver_version, current.driver_version,
            env.gpu_name.empty() ? "no GPU here" : "tuned on another GPU");
    find_rate_reference(db, e);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace sgemm_tune
