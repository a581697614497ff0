#include "tuner/common/status.h"

#include <array>
#include <utility>

namespace sgemm_tune {
namespace {
constexpr std::array<std::pair<CandidateStatus, std::string_view>, 6> kNames{{
    {CandidateStatus::ok, "ok"},
    {CandidateStatus::invalid, "invalid"},
    {CandidateStatus::compile_failed, "compile_failed"},
    {CandidateStatus::pruned, "pruned"},
    {CandidateStatus::launch_failed, "launch_failed"},
    {CandidateStatus::wrong_result, "wrong_result"},
}};
}  // namespace

std::string_view to_string(CandidateStatus s) {
  for (const auto &[status, name] : kNames)
    if (status == s) return name;
  return "unknown";
}

std::optional<CandidateStatus> status_from_string(std::string_view text) {
  for (const auto &[status, name] : kNames)
    if (name == text) return status;
  return std::nullopt;
}

}  // namespace sgemm_tune
