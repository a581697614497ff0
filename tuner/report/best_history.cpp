#include "tuner/report/report_queries.h"

#include "tuner/record/shape_columns.h"

namespace sgemm_tune {

nlohmann::json best_history(Database &db, const ReportScope &scope) {
  // SQLite takes the bare columns of a MIN() aggregate from the row that holds the minimum.
  Statement st = db.prepare(R"(SELECT r.id AS run_id, r.started_at, r.gpu_name, r.fingerprint, r.template_hash,
           x.m, x.n, x.k, x.operands, MIN(x.time_ms) AS time_ms, x.cublas_ms, x.tflops
    FROM runs r
    JOIN runs p ON p.gpu_name = r.gpu_name AND p.fingerprint = r.fingerprint
               AND (p.started_at < r.started_at OR (p.started_at = r.started_at AND p.id <= r.id))
    JOIN results x ON x.run_id = p.id AND x.status = 'ok' AND x.time_ms > 0 AND x.cublas_ms > 0
    GROUP BY r.id, x.m, x.n, x.k, x.operands
    ORDER BY r.started_at, r.id, x.m, x.n, x.k, x.operands)");
  nlohmann::json out = nlohmann::json::array();
  while (st.step()) {
    const Shape shape = read_shape(st);
    const std::string gpu = st.column_text("gpu_name");
    if (!scope.covers(gpu, shape)) continue;
    const double time_ms = st.column_double("time_ms");
    nlohmann::json j;
    j["run_id"] = st.column_int("run_id");
    j["started_at"] = st.column_text("started_at");
    j["gpu"] = gpu;
    j["shape"] = shape.to_string();
    j["fingerprint"] = st.column_text("fingerprint");
    j["template_hash"] = st.column_text("template_hash");
    j["percent"] = rounded(100.0 * st.column_double("cublas_ms") / time_ms, 1e-2);
    j["tflops"] = rounded(st.column_double("tflops"), 1e-2);
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace sgemm_tune
