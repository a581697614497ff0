// The disposition of one candidate at one problem shape. A failed candidate is a result
// with a status and a reason, never a crash.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sgemm_tune {

enum class CandidateStatus {
  ok,              // timed and verified against cuBLAS
  invalid,         // breaks the kernel's validity rules or does not tile the shape
  compile_failed,  // NVRTC or ptxas rejected it
  pruned,          // cannot reach good residency; not run
  launch_failed,   // the GPU refused or faulted on it
  wrong_result,    // ran, but disagrees with cuBLAS
};

// The reason of an invalid result whose tile obeys the rules but does not divide the
// problem shape; the other invalid results carry the code of the rule they break.
inline constexpr const char *kShapeNotTiled = "shape_not_tiled";

std::string_view to_string(CandidateStatus s);
std::optional<CandidateStatus> status_from_string(std::string_view text);

}  // namespace sgemm_tune
