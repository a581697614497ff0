// Content hashing for provenance. FNV-1a over 64 bits detects any change to a template
// or option string; it is not meant to resist deliberate collisions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sgemm_tune {

std::uint64_t fnv1a64(std::string_view data, std::uint64_t seed = 0xcbf29ce484222325ULL);
std::string to_hex(std::uint64_t value);

}  // namespace sgemm_tune
