// Text from a database written into generated C++: it must stay the text it was, never
// become code. Comments and string literals go through these; identifiers are never made
// from stored text at all, only numbered.
#pragma once

#include <string>
#include <string_view>

namespace sgemm_tune {

// For a // comment: printable ASCII stays, every other byte (line breaks, control
// characters, non-ASCII) and the characters that could end or extend the comment line
// (a backslash splices lines; '?' starts trigraphs in older dialects) are written %XX.
std::string cpp_comment_text(std::string_view text);

// A complete string literal, quotes included: printable ASCII stays; quotes, backslashes
// and '?' are escaped; every other byte is an octal escape of three digits (never taken
// together with a following digit, as a hex escape would be).
std::string cpp_string_literal(std::string_view text);

}  // namespace sgemm_tune
