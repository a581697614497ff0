// libFuzzer target: exports, as `sgemm-tune import` reads them. Any input must either be
// imported or be refused with a UserError (a JSON parse error for what is not JSON);
// anything else (a crash, a sanitizer report, another exception) is a bug. Whatever was
// imported must then pass the same checks again when read back, and machine code may
// only be stored where the tuner compiled the same bytes itself.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "tuner/common/errors.h"
#include "tuner/record/exchange.h"
#include "tuner/record/result_store.h"
#include "tuner/record/row_checks.h"

namespace {

sgemm_tune::ResultStore &store() {
  // One database for the whole session, emptied between inputs: opening and migrating a
  // file per input would be most of the time spent.
  static sgemm_tune::ResultStore s("/tmp/sgemm_tune_fuzz_import.db");
  return s;
}

const sgemm_tune::CodeRebuilder &rebuilder() {
  static const sgemm_tune::CodeRebuilder r(sgemm_tune::KernelSource::embedded(), {});
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(data, data + size);
  } catch (const nlohmann::json::exception &) {  // not JSON, or a number out of range
    return 0;
  }
  sgemm_tune::Database &db = store().database();
  db.exec("DELETE FROM results; DELETE FROM kernels; DELETE FROM runs;");
  try {
    sgemm_tune::import_database(db, doc, "fuzz.json", &rebuilder());
  } catch (const sgemm_tune::UserError &) {
    return 0;
  }
  // What was stored reads back as a valid export: the checks held.
  const nlohmann::json back = sgemm_tune::export_database(db);
  for (const auto &run : back["runs"]) {
    nlohmann::json plain = run;
    plain.erase("results");
    sgemm_tune::check_run_row(plain, "read back");
    // Format 2: a run's results as columns and rows.
    const auto &columns = run["results"]["columns"];
    for (const auto &values : run["results"]["rows"]) {
      nlohmann::json r = nlohmann::json::object();
      for (std::size_t c = 0; c < columns.size(); ++c) r[columns[c].get<std::string>()] = values[c];
      sgemm_tune::check_result_row(r, "read back");
    }
  }
  for (const auto &k : back["kernels"]) {
    sgemm_tune::check_kernel_row(k, "read back");
    // Stored code is code this tuner compiles: check it the way emit will.
    for (const auto &run : back["runs"]) {
      if (run["fingerprint"] != k["fingerprint"]) continue;
      sgemm_tune::CodeOrigin origin{run["template_hash"], run["compile_options"], run["nvrtc_version"],
                                    run["compute_capability"], sgemm_tune::tile_of_row(k)};
      const auto rebuilt = rebuilder().rebuild({origin});
      if (!rebuilt[0].kernel || rebuilt[0].kernel->lowered_name != k["lowered_name"]) std::abort();
      break;
    }
  }
  return 0;
}
