// The machine code a generated header ships, read back from its text: every array
// `inline const unsigned char NAME[] =` with its string literals, unescaped as C++ reads
// what cpp_bytes_literal writes (printable characters, \" \\ \? and three-digit octal
// escapes; CppText.ByteLiteralsRoundTripMachineCodeThroughTheCompiler checks that the
// compiler reads them so). Tests compare these bytes with the tuner's own compilation and
// search them for forged payloads, which a search of the text would miss where a payload
// spans two lines or is escaped.
#pragma once

#include <map>
#include <string>

namespace sgemm_tune::testing {

inline std::map<std::string, std::string> header_images(const std::string &text) {
  std::map<std::string, std::string> images;
  const std::string start = "inline const unsigned char ";
  for (auto at = text.find(start); at != std::string::npos; at = text.find(start, at + 1)) {
    const auto name_begin = at + start.size();
    const auto name_end = text.find("[]", name_begin);
    std::string &image = images[text.substr(name_begin, name_end - name_begin)];
    // One literal a line after the declaration's; the last ends with ';'.
    for (auto pos = text.find('\n', name_end) + 1; pos != 0 && pos < text.size();) {
      const auto line_end = text.find('\n', pos);
      const std::string line = text.substr(pos, line_end - pos);
      const auto open = line.find('"'), close = line.rfind('"');
      for (auto i = open + 1; open != std::string::npos && i < close; ++i) {
        if (line[i] != '\\') {
          image += line[i];
        } else if (line[i + 1] >= '0' && line[i + 1] <= '7') {
          image += static_cast<char>(std::stoi(line.substr(i + 1, 3), nullptr, 8));
          i += 3;
        } else {
          image += line[++i];
        }
      }
      if (line.empty() || line.back() == ';' || line_end == std::string::npos) break;
      pos = line_end + 1;
    }
  }
  return images;
}

}  // namespace sgemm_tune::testing
