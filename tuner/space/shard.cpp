#include "tuner/space/shard.h"

#include <cctype>

#include "tuner/common/errors.h"
#include "tuner/common/hash.h"
#include "tuner/common/text.h"

namespace sgemm_tune {
namespace {

constexpr std::size_t kMaxShards = 65536;

// Decimal digits only, at most 6 of them.
bool read_count(const std::string &text, std::size_t &out) {
  if (text.empty() || text.size() > 6) return false;
  out = 0;
  for (const char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    out = out * 10 + static_cast<std::size_t>(c - '0');
  }
  return true;
}

}  // namespace

Shard parse_shard(const std::string &text) {
  const auto slash = text.find('/');
  Shard s;
  if (slash == std::string::npos || !read_count(text.substr(0, slash), s.index) ||
      !read_count(text.substr(slash + 1), s.count) || s.count < 1 || s.count > kMaxShards || s.index >= s.count)
    throw UserError("--shard: expected I/N with 0 <= I < N <= " + std::to_string(kMaxShards) + " (e.g. 0/4), got \"" +
                    terminal_safe(text) + "\"");
  return s;
}

bool in_shard(const SgemmTile &tile, const Shard &shard) {
  return fnv1a64(tile_arguments(tile)) % shard.count == shard.index;
}

}  // namespace sgemm_tune
