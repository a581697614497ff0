// Text that came from outside the program (a database, an export, a search space file)
// before it is shown or stored: what counts as plain text, and how to show anything else
// on a terminal without it acting on the terminal.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sgemm_tune {

// How long text from outside may be: names (GPU, space, versions), long text (commands,
// paths, options), and multi-line diagnostics.
inline constexpr std::size_t kMaxNameBytes = 256;
inline constexpr std::size_t kMaxLongTextBytes = 4096;
inline constexpr std::size_t kMaxDetailBytes = 65536;

// Valid UTF-8 with no control characters (C0, DEL, C1), of at most `max_bytes` bytes.
// With `allow_line_breaks`, '\n' and '\t' are allowed too (multi-line diagnostics).
bool is_plain_text(std::string_view text, std::size_t max_bytes, bool allow_line_breaks = false);

// The text with every control character and every byte of invalid UTF-8 written as \xNN
// so that printing it cannot move the cursor, recolour, retitle or otherwise command a
// terminal. Plain text comes back unchanged.
std::string terminal_safe(std::string_view text);

}  // namespace sgemm_tune
