#include "tuner/common/text.h"

#include <cstdint>
#include <cstdio>

namespace sgemm_tune {
namespace {

// The length of the UTF-8 sequence that starts at text[i] and encodes a character that is
// not a control character; 0 if there is none (invalid, overlong, surrogate, C0/DEL/C1).
std::size_t plain_character_length(std::string_view text, std::size_t i, bool allow_line_breaks) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[k]); };
  const std::uint8_t b0 = byte(i);
  if (b0 < 0x80) {
    if (b0 >= 0x20 && b0 != 0x7f) return 1;
    return allow_line_breaks && (b0 == '\n' || b0 == '\t') ? 1 : 0;
  }
  std::size_t length;
  std::uint32_t cp;
  if ((b0 & 0xe0) == 0xc0) {
    length = 2;
    cp = b0 & 0x1f;
  } else if ((b0 & 0xf0) == 0xe0) {
    length = 3;
    cp = b0 & 0x0f;
  } else if ((b0 & 0xf8) == 0xf0) {
    length = 4;
    cp = b0 & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3f);
  }
  static constexpr std::uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kSmallest[length] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  if (cp >= 0x80 && cp <= 0x9f) return 0;  // C1 controls: some terminals obey them
  return length;
}

}  // namespace

bool is_plain_text(std::string_view text, std::size_t max_bytes, bool allow_line_breaks) {
  if (text.size() > max_bytes) return false;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = plain_character_length(text, i, allow_line_breaks);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = plain_character_length(text, i, false);
    if (n == 0) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(text[i]));
      out += buf;
      ++i;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

}  // namespace sgemm_tune
