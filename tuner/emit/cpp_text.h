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

// Bytes of any value (machine code) for an array of unsigned char: string literals of
// `bytes_per_line` bytes each, escaped as cpp_string_literal does, one per line, each line
// starting with `indent`; adjacent literals concatenate. The array is one byte longer than
// `bytes` (the terminating zero). Compilers take a literal as one token, where an
// initializer list costs a node per byte: for 1.3 MB of machine code nvcc needed 575 MB
// and 9.3 s more than for an empty file with the list, 9 MB and 0.5 s with literals.
std::string cpp_bytes_literal(std::string_view bytes, std::string_view indent, std::size_t bytes_per_line = 32);

}  // namespace sgemm_tune
