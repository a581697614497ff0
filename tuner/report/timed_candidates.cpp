#include <set>

#include "sgemm_tuned_select.h"
#include "tuner/record/shape_columns.h"
#include "tuner/record/tile_columns.h"
#include "tuner/report/report_queries.h"

namespace sgemm_tune {
nlohmann::json timed_candidates(Database &db, const std::vector<BestEntry> &entries) {
  Statement st = db.prepare("SELECT " + tile_column_list("x.") + R"(, x.registers, x.blocks_per_sm, x.time_ms,
           x.tflops, x.cublas_ms, x.repeats, MAX(COALESCE(x.error_beta0, 0), COALESCE(x.error_beta, 0)) AS error,
           r.id AS run_id
    FROM results x JOIN runs r ON r.id = x.run_id
    WHERE r.gpu_name = :gpu AND r.fingerprint = :fingerprint AND )" + shape_column_match("x.") + R"(
      AND x.status = 'ok' AND x.time_ms > 0 AND x.cublas_ms > 0
    ORDER BY x.time_ms, r.id)");
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t series = 0; series < entries.size(); ++series) {
    const BestEntry &e = entries[series];
    st.bind(":gpu", e.gpu_name).bind(":fingerprint", e.fingerprint_hash);
    bind_shape(st, e.shape);
    std::set<SgemmTile> seen;
    int rank = 0;
    while (st.step()) {
      const SgemmTile tile = read_tile(st);
      if (!seen.insert(tile).second) continue;  // timed again in a later run: the faster stands
      nlohmann::json j;
      j["series"] = series;
      j["rank"] = ++rank;
      for (std::size_t i = 0; i < kTileParameters.size(); ++i)
        j[std::string(kTileParameters[i])] = tile_parameter(tile, i);
      j["registers"] = st.is_null("registers") ? nlohmann::json() : nlohmann::json(st.column_int("registers"));
      j["blocks_per_sm"] =
          st.is_null("blocks_per_sm") ? nlohmann::json() : nlohmann::json(st.column_int("blocks_per_sm"));
      const double time_ms = st.column_double("time_ms");
      j["time_ms"] = rounded(time_ms, 1e-4);
      j["tflops"] = rounded(st.column_double("tflops"), 1e-2);
      j["percent"] = rounded(100.0 * st.column_double("cublas_ms") / time_ms, 1e-2);
      j["repeats"] = st.column_int("repeats");
      j["error"] = st.column_double("error");
      j["run_id"] = st.column_int("run_id");
      j["seed"] = tile == sgemm_tune_kernels::kDefaultTile;
      out.push_back(std::move(j));
    }
  }
  return out;
}

}  // namespace sgemm_tune
