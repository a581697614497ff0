#include "tuner/record/replay_recording.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "tuner/common/errors.h"
#include "tuner/common/text.h"
#include "tuner/prune/prune.h"
#include "tuner/record/row_checks.h"
#include "tuner/record/shape_columns.h"
#include "tuner/record/tile_columns.h"
#include "tuner/space/enumerate.h"

namespace sgemm_tune {
namespace {

struct RunInfo {
  std::int64_t id = 0;
  std::string fingerprint, gpu_name;
};

RunInfo chosen_run(Database &db, const std::optional<std::int64_t> &run) {
  Statement st = db.prepare(run ? "SELECT id, fingerprint, gpu_name FROM runs WHERE id = :id"
                                : "SELECT id, fingerprint, gpu_name FROM runs ORDER BY id DESC LIMIT 1");
  if (run) st.bind(":id", *run);
  if (!st.step()) throw UserError(db.path() + ": " + (run ? "no run " + std::to_string(*run) : "no runs"));
  return RunInfo{st.column_int("id"), st.column_text("fingerprint"), st.column_text("gpu_name")};
}

}  // namespace

ReplayData replay_data_from_database(Database &db, const RecordingSelection &selection) {
  ReplayData data;
  data.space_json = selection.space_json;
  data.space = parse_search_space(selection.space_json.dump(), "the space");
  data.description = selection.description;
  const RunInfo run = chosen_run(db, selection.run);
  if (!is_plain_text(run.gpu_name, kMaxNameBytes)) throw UserError(db.path() + ": run " + std::to_string(run.id) + ": the GPU name is not plain text");
  data.gpu = run.gpu_name;
  data.shapes = data.space.shapes;
  if (data.shapes.empty()) throw UserError("the space names no shapes: the recording is read at the space's shapes");

  std::map<SgemmTile, std::size_t> order;  // enumeration index
  for (const SgemmTile &t : enumerate_candidates(data.space).candidates) order.emplace(t, order.size());

  Statement st = db.prepare("SELECT r.m, r.n, r.k, r.operands, r.status, r.reason, r.registers, r.time_ms, r.cublas_ms, " +
                            tile_column_list("r.") +
                            " FROM results r JOIN runs ON runs.id = r.run_id WHERE runs.fingerprint = :fp ORDER BY r.id");
  st.bind(":fp", run.fingerprint);
  std::map<std::pair<std::size_t, std::size_t>, ReplayRow> rows;  // (enumeration index, shape)
  std::vector<std::vector<double>> cublas(data.shapes.size());
  while (st.step()) {
    const Shape shape = read_shape(st);
    const auto s = std::find(data.shapes.begin(), data.shapes.end(), shape);
    if (s == data.shapes.end()) continue;
    const std::size_t shape_index = static_cast<std::size_t>(s - data.shapes.begin());
    const SgemmTile tile = read_tile(st);
    const std::string where = db.path() + ": result " + describe_tile(tile) + " at " + shape.to_string();
    if (!is_valid_tile(tile)) throw UserError(where + ": breaks the kernel's validity rules");
    const auto index = order.find(tile);
    if (index == order.end()) throw UserError(where + ": not a candidate of the space (another space's run?)");
    const auto status = status_from_string(st.column_text("status"));
    if (!status) throw UserError(where + ": unknown status");
    const std::string reason = st.is_null("reason") ? "" : st.column_text("reason");
    const bool by_search = *status == CandidateStatus::pruned && (reason == kPruneNotFinalist || reason == kPruneNotProposed);
    if (by_search && selection.partial) continue;
    if (by_search)
      throw UserError(where + ": pruned by the search (" + reason +
                      "): not an exhaustive recording (tune with \"strategy\": {\"kind\": \"exhaustive\"})");
    if (*status == CandidateStatus::invalid || (*status == CandidateStatus::pruned && st.is_null("registers")))
      continue;  // judged before compiling: not a survivor
    ReplayRow row{tile, shape_index, *status, 0};
    if (*status == CandidateStatus::ok) {
      row.time_ms = st.column_double("time_ms");
      const double c = st.is_null("cublas_ms") ? 0 : st.column_double("cublas_ms");
      if (!(row.time_ms > 0) || !std::isfinite(row.time_ms) || !(c > 0) || !std::isfinite(c))
        throw UserError(where + ": an ok result without a positive time and cuBLAS time");
      cublas[shape_index].push_back(c);
    }
    // Measured twice (two runs under one fingerprint): the faster time, as a resumed run takes it.
    auto [it, added] = rows.emplace(std::make_pair(index->second, shape_index), row);
    if (!added && row.status == CandidateStatus::ok &&
        (it->second.status != CandidateStatus::ok || row.time_ms < it->second.time_ms))
      it->second = row;
  }
  for (std::size_t s = 0; s < cublas.size(); ++s) {
    if (cublas[s].empty()) throw UserError(db.path() + ": nothing timed at " + data.shapes[s].to_string());
    std::sort(cublas[s].begin(), cublas[s].end());
    data.cublas_ms.push_back(cublas[s][cublas[s].size() / 2]);
  }
  for (const auto &[key, row] : rows) data.rows.push_back(row);
  return data;
}

}  // namespace sgemm_tune
