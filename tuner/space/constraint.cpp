#include "tuner/space/constraint.h"

#include <cctype>
#include <climits>
#include <optional>
#include <vector>

#include "tuner/common/errors.h"

namespace sgemm_tune {

struct Constraint::Node {
  enum class Kind { number, name, unary, binary } kind;
  long long number = 0;
  std::string op;  // name for Kind::name, operator otherwise
  std::shared_ptr<const Node> lhs, rhs;
};

namespace {

using NodePtr = std::shared_ptr<const Constraint::Node>;
using Node = Constraint::Node;

class Parser {
 public:
  explicit Parser(const std::string &text) : text_(text) {}

  NodePtr parse() {
    // A long chain "1+1+...+1" builds a tree as deep as it is long; bound it here.
    if (text_.size() > kMaxLength) fail("longer than " + std::to_string(kMaxLength) + " characters");
    NodePtr root = parse_binary(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected '" + text_.substr(pos_, 1) + "'");
    return root;
  }

 private:
  // Binary operators by precedence level, loosest first.
  static const std::vector<std::vector<std::string>> &levels() {
    static const std::vector<std::vector<std::string>> table = {
        {"||"}, {"&&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"+", "-"}, {"*", "/", "%"}};
    return table;
  }

  [[noreturn]] void fail(const std::string &what) const {
    throw UserError("constraint '" + text_ + "': " + what + " at position " + std::to_string(pos_ + 1));
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  std::optional<std::string> match_operator(const std::vector<std::string> &ops) {
    skip_space();
    for (const auto &op : ops) {
      if (text_.compare(pos_, op.size(), op) != 0) continue;
      // "<" must not swallow the first half of "<=", nor "!" of "!=" etc.; longer
      // operators are listed first within a level.
      pos_ += op.size();
      return op;
    }
    return std::nullopt;
  }

  NodePtr parse_binary(std::size_t level) {
    if (level == levels().size()) return parse_unary();
    NodePtr lhs = parse_binary(level + 1);
    while (auto op = match_operator(levels()[level])) {
      NodePtr rhs = parse_binary(level + 1);
      lhs = std::make_shared<Node>(Node{Node::Kind::binary, 0, *op, lhs, rhs});
    }
    return lhs;
  }

  NodePtr parse_unary() {
    // Bounded so that hostile input cannot exhaust the stack.
    if (++depth_ > kMaxDepth) fail("expression nested too deeply");
    struct Leave {
      int &depth;
      ~Leave() { --depth; }
    } leave{depth_};
    skip_space();
    if (pos_ < text_.size() && (text_[pos_] == '!' || text_[pos_] == '-') &&
        text_.compare(pos_, 2, "!=") != 0) {
      const std::string op(1, text_[pos_++]);
      return std::make_shared<Node>(Node{Node::Kind::unary, 0, op, parse_unary(), nullptr});
    }
    return parse_primary();
  }

  NodePtr parse_primary() {
    skip_space();
    if (pos_ == text_.size()) fail("expression ends early");
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      NodePtr inner = parse_binary(0);
      skip_space();
      if (pos_ == text_.size() || text_[pos_] != ')') fail("expected ')'");
      ++pos_;
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      long long value = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        value = value * 10 + (text_[pos_++] - '0');
        if (value > (1LL << 40)) fail("number too large");
      }
      return std::make_shared<Node>(Node{Node::Kind::number, value, "", nullptr, nullptr});
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const std::size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
      std::string name = text_.substr(start, pos_ - start);
      if (!tile_quantity(SgemmTile{}, name)) {
        pos_ = start;
        fail("unknown name '" + name + "' (parameters: BM BN BK WM WN WNITER TM TN STAGES PREFETCH STREAMK; derived: THREADS SMEM_BYTES)");
      }
      return std::make_shared<Node>(Node{Node::Kind::name, 0, std::move(name), nullptr, nullptr});
    }
    fail("unexpected '" + std::string(1, c) + "'");
  }

  static constexpr int kMaxDepth = 200;
  static constexpr std::size_t kMaxLength = 1000;
  const std::string &text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

// nullopt: the expression is undefined for this tile (division by zero).
std::optional<long long> evaluate(const Node &node, const SgemmTile &tile) {
  switch (node.kind) {
    case Node::Kind::number: return node.number;
    case Node::Kind::name: return tile_quantity(tile, node.op);
    case Node::Kind::unary: {
      auto v = evaluate(*node.lhs, tile);
      if (!v) return std::nullopt;
      if (node.op == "!") return static_cast<long long>(*v == 0);
      if (*v == LLONG_MIN) return std::nullopt;
      return -*v;
    }
    case Node::Kind::binary: break;
  }
  const std::string &op = node.op;
  auto a = evaluate(*node.lhs, tile);
  if (!a) return std::nullopt;
  // Short-circuit, so that "WM > 0 && BM % WM == 0" is safe.
  if (op == "&&" && *a == 0) return 0;
  if (op == "||" && *a != 0) return 1;
  auto b = evaluate(*node.rhs, tile);
  if (!b) return std::nullopt;
  if (op == "&&" || op == "||") return static_cast<long long>(*b != 0);
  if (op == "==") return static_cast<long long>(*a == *b);
  if (op == "!=") return static_cast<long long>(*a != *b);
  if (op == "<") return static_cast<long long>(*a < *b);
  if (op == "<=") return static_cast<long long>(*a <= *b);
  if (op == ">") return static_cast<long long>(*a > *b);
  if (op == ">=") return static_cast<long long>(*a >= *b);
  long long r = 0;
  // Overflow makes the expression undefined, like division by zero.
  if (op == "+") return __builtin_add_overflow(*a, *b, &r) ? std::nullopt : std::optional<long long>(r);
  if (op == "-") return __builtin_sub_overflow(*a, *b, &r) ? std::nullopt : std::optional<long long>(r);
  if (op == "*") return __builtin_mul_overflow(*a, *b, &r) ? std::nullopt : std::optional<long long>(r);
  if (*b == 0 || (*a == LLONG_MIN && *b == -1)) return std::nullopt;
  if (op == "/") return *a / *b;
  return *a % *b;
}

}  // namespace

Constraint Constraint::parse(const std::string &text) {
  Constraint c;
  c.text_ = text;
  c.root_ = Parser(c.text_).parse();
  return c;
}

bool Constraint::holds(const SgemmTile &tile) const {
  auto value = evaluate(*root_, tile);
  return value && *value != 0;
}

}  // namespace sgemm_tune
