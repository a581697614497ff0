#include "tuner/report/report_queries.h"
#include "tuner/space/tile_json.h"

namespace sgemm_tune {

bool ReportScope::covers(const std::string &gpu_name, const Shape &s) const {
  if (!gpu.empty() && gpu_name != gpu) return false;
  return !shape || *shape == s;
}

nlohmann::json best_summaries(const std::vector<BestEntry> &entries) {
  nlohmann::json out = nlohmann::json::array();
  for (const BestEntry &e : entries) {
    nlohmann::json j;
    j["gpu"] = e.gpu_name;
    j["compute_capability"] = e.compute_capability;
    j["shape"] = e.shape.to_string();
    j["tile"] = tile_to_json(e.tile);
    j["time_ms"] = rounded(e.time_ms, 1e-4);
    j["cublas_ms"] = rounded(e.cublas_ms, 1e-4);
    j["tflops"] = rounded(e.tflops, 1e-2);
    j["percent"] = rounded(e.percent_of_cublas, 1e-2);
    j["stale"] = e.stale();
    std::string changes;
    for (const auto &c : e.changes) changes += (changes.empty() ? "" : "; ") + c.part + " " + c.recorded + " -> " + c.current;
    j["changes"] = changes;
    std::string unchecked;
    for (const auto &u : e.unchecked) unchecked += (unchecked.empty() ? "" : "; ") + u;
    j["unchecked"] = unchecked;
    j["run_id"] = e.run_id;
    j["measured_at"] = e.measured_at;
    j["fingerprint"] = e.fingerprint_hash;
    j["timing_method"] = e.fingerprint.timing_method;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace sgemm_tune
