// Recorded timings to replay search strategies against, without a GPU: every survivor of
// one search space (the candidates a strategy may propose) with what timing it gave at
// each shape (a time, or none: it failed to compile, was pruned on its registers, gave a
// wrong result). A file in this format is data from elsewhere, checked field by field
// like an export. Format (README.md, "Replaying searches"):
//   {"format": "sgemm-tune replay", "version": 1, "description": "...", "gpu": "...",
//    "space": {the search space file's object}, "shapes": [{"shape": "MxNxK", "cublas_ms": 2.68}],
//    "columns": ["BM", ..., "STREAMK", "shape", "status", "time_ms"],
//    "rows": [[128, 256, 16, 32, 128, 4, 4, 4, 3, 0, 0, 0, "ok", 2.791], ...]}
// `shape` is an index into "shapes"; `time_ms` is null unless the status is "ok". Rows come
// in the space's enumeration order: the order an exhaustive search times them in.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tuner/common/status.h"
#include "tuner/space/search_space.h"

namespace sgemm_tune {

inline constexpr int kReplayVersion = 1;

struct ReplayRow {
  SgemmTile tile{};
  std::size_t shape = 0;
  CandidateStatus status = CandidateStatus::ok;
  double time_ms = 0;  // when ok
};

struct ReplayData {
  std::string description;
  std::string gpu;
  nlohmann::json space_json;  // as recorded
  SearchSpace space;          // parsed from it: the staged search's settings and references
  std::vector<Shape> shapes;
  std::vector<double> cublas_ms;  // per shape
  std::vector<ReplayRow> rows;

  // The survivors, in the order of their first row.
  std::vector<SgemmTile> survivors() const;
  // The time of each (tile, shape) that has one.
  std::map<std::pair<SgemmTile, std::size_t>, double> times() const;
};

// Throws UserError naming `source`, the row and the field.
ReplayData parse_replay_data(const nlohmann::json &doc, const std::string &source);
ReplayData load_replay_data(const std::string &path);
// One row per line, so that a diff of two recordings reads.
std::string replay_data_to_text(const ReplayData &data);

}  // namespace sgemm_tune
