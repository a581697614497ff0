#include "tuner/pipeline/prior_timings.h"

#include <algorithm>
#include <cmath>

#include "tuner/record/shape_columns.h"
#include "tuner/record/tile_columns.h"

namespace sgemm_tune {

std::vector<PriorTiming> load_prior_timings(Database &db, const std::string &gpu_name, const std::vector<Shape> &shapes) {
  Statement st = db.prepare("SELECT r.m, r.n, r.k, r.operands, r.time_ms, r.cublas_ms, runs.gpu_name, " + tile_column_list("r.") +
                            " FROM results r JOIN runs ON runs.id = r.run_id WHERE r.status = 'ok'"
                            " AND r.time_ms > 0 AND r.cublas_ms > 0 ORDER BY r.id");
  std::vector<PriorTiming> out;
  while (st.step()) {
    const double time = st.column_double("time_ms"), cublas = st.column_double("cublas_ms");
    if (!std::isfinite(time) || !std::isfinite(cublas)) continue;
    const Shape shape = read_shape(st);
    const bool same_gpu = st.column_text("gpu_name") == gpu_name;
    const bool same_shape = std::find(shapes.begin(), shapes.end(), shape) != shapes.end();
    // A BLAS shape's time may be an edge kernel's: it says nothing of the tile at other shapes.
    if (shape.blas && !same_shape) continue;
    const double weight = same_gpu && same_shape ? 1.0 : same_gpu || same_shape ? 0.5 : 0.25;
    out.push_back(PriorTiming{read_tile(st), 100.0 * cublas / time, weight});
  }
  return out;
}

}  // namespace sgemm_tune
