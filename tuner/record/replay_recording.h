// Replay data (tuner/search/replay_data.h) from a database: the results of one exhaustive
// search of a space, as `sgemm-tune replay-data` writes them for committing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "tuner/record/sqlite.h"
#include "tuner/search/replay_data.h"

namespace sgemm_tune {

struct RecordingSelection {
  nlohmann::json space_json;          // the space file the run searched, as an object
  std::optional<std::int64_t> run;    // the run (its id in `db`); default: the newest run
  std::string description;
  // Leave out what a search did not take up (not_finalist, not_proposed) instead of
  // refusing the run: a replay of a run that was not exhaustive, over what it reached.
  bool partial = false;
};

// The results of the chosen run, and of every other run under its fingerprint (a resumed
// run reuses what an earlier one measured, and a pruned outcome is stored once), at the
// space's shapes. The survivors are the candidates that reached the compiler: a result
// that is ok, failed or wrong, failed to compile, or was pruned after compiling (it has
// registers). Throws UserError when the run is not exhaustive (a candidate pruned by a
// search, reason not_finalist or not_proposed), when a tile is not in the space, or when
// a row breaks the kernel's validity rules.
ReplayData replay_data_from_database(Database &db, const RecordingSelection &selection);

}  // namespace sgemm_tune
