#include "tuner/emit/cpp_text.h"

#include <algorithm>
#include <cstdio>

namespace sgemm_tune {
namespace {

bool printable_ascii(unsigned char c) { return c >= 0x20 && c < 0x7f; }

}  // namespace

std::string cpp_comment_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (printable_ascii(c) && c != '\\' && c != '?' && c != '%') {
      out += ch;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

std::string cpp_string_literal(std::string_view text) {
  std::string out = "\"";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\' || c == '?') {
      out += '\\';
      out += ch;
    } else if (printable_ascii(c)) {
      out += ch;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", c);
      out += buf;
    }
  }
  return out + "\"";
}

std::string cpp_bytes_literal(std::string_view bytes, std::string_view indent, std::size_t bytes_per_line) {
  bytes_per_line = std::max<std::size_t>(bytes_per_line, 1);
  std::string out;
  for (std::size_t at = 0; at < bytes.size(); at += bytes_per_line) {
    out += indent;
    out += cpp_string_literal(bytes.substr(at, bytes_per_line));
    out += '\n';
  }
  if (bytes.empty()) out += std::string(indent) + "\"\"\n";
  return out;
}

}  // namespace sgemm_tune
