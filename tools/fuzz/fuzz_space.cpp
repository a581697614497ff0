// libFuzzer target: search space files and shape strings. Any input must either parse or
// be refused with a UserError; anything else (a crash, a sanitizer report, another
// exception) is a bug. Build and run with tools/fuzz/run.sh.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tuner/common/errors.h"
#include "tuner/space/enumerate.h"
#include "tuner/space/search_space.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  try {
    sgemm_tune::parse_shape(text);
  } catch (const sgemm_tune::UserError &) {
  }
  try {
    const sgemm_tune::SearchSpace space = sgemm_tune::parse_search_space(text, "fuzz.json");
    // Enumerate only small spaces: the point is the constraints' evaluation, not time.
    if (space.size() <= 4096) sgemm_tune::enumerate_candidates(space);
  } catch (const sgemm_tune::UserError &) {
  }
  return 0;
}
