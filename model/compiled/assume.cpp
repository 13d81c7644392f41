// Assumptions (assume.hpp): a recursive-descent parser for the grammar there, and its evaluator.
#include "model/compiled/assume.hpp"

#include <cctype>
#include <limits>

namespace layoutproof::compiled {
namespace {

class Parser {
 public:
  Parser(const std::string& text, const std::string& what) : s_(text), what_(what) {}

  AssumeExpr all() {
    AssumeExpr e = lor();
    skip();
    if (i_ < s_.size()) fail("an operator or the end");
    return e;
  }

 private:
  [[noreturn]] void fail(const std::string& expected) const {
    const std::string found = i_ < s_.size() ? "'" + s_.substr(i_, 1) + "'" : "the end";
    throw LayoutError(what_ + ": expected " + expected + ", found " + found + " at column " + std::to_string(i_ + 1) + "\n  " + s_ + "\n  " +
                      std::string(i_, ' ') + "^");
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  // The operator at the cursor when it is one of `ops` (longest first) and not the start of a
  // longer one that is not listed (`<` is not the start of `<<` or `<=`).
  std::optional<std::string> op(std::initializer_list<const char*> ops) {
    skip();
    for (const char* o : ops) {
      const std::string x = o;
      if (s_.compare(i_, x.size(), x) != 0) continue;
      const char next = i_ + x.size() < s_.size() ? s_[i_ + x.size()] : '\0';
      if (x.size() == 1 && (x == "<" || x == ">") && (next == x[0] || next == '=')) continue;
      if (x.size() == 1 && (x == "&" || x == "|") && next == x[0]) continue;
      if (x.size() == 1 && (x == "!" || x == "=") && next == '=') continue;
      i_ += x.size();
      return x;
    }
    return std::nullopt;
  }
  static AssumeExpr binary(std::string o, AssumeExpr a, AssumeExpr b) {
    AssumeExpr e;
    e.kind = AssumeExpr::Kind::binary;
    e.op = std::move(o);
    e.args.push_back(std::move(a));
    e.args.push_back(std::move(b));
    return e;
  }
  template <class Next>
  AssumeExpr left(std::initializer_list<const char*> ops, Next next) {
    AssumeExpr e = (this->*next)();
    while (const auto o = op(ops)) e = binary(*o, std::move(e), (this->*next)());
    return e;
  }
  AssumeExpr lor() { return left({"||"}, &Parser::land); }
  AssumeExpr land() { return left({"&&"}, &Parser::bor); }
  AssumeExpr bor() { return left({"|"}, &Parser::bxor); }
  AssumeExpr bxor() { return left({"^"}, &Parser::band); }
  AssumeExpr band() { return left({"&"}, &Parser::eq); }
  AssumeExpr eq() { return left({"==", "!="}, &Parser::rel); }
  AssumeExpr rel() { return left({"<=", ">=", "<", ">"}, &Parser::shift); }
  AssumeExpr shift() {
    AssumeExpr e = add();
    while (const auto o = op({"<<", ">>"})) {
      skip();
      const std::size_t at = i_;
      const i64 k = literal("a shift count 0..63 (a literal)");
      if (k > 63) i_ = at, fail("a shift count 0..63 (a literal)");
      e = binary(*o, std::move(e), number(k));
    }
    return e;
  }
  AssumeExpr add() { return left({"+", "-"}, &Parser::mul); }
  AssumeExpr mul() {
    AssumeExpr e = unary();
    for (;;) {
      if (const auto o = op({"*"})) {
        e = binary(*o, std::move(e), unary());
        continue;
      }
      if (const auto o = op({"/", "%"})) {
        skip();
        const std::size_t at = i_;
        const i64 k = literal("a positive integer literal (a divisor that may be 0 is no assumption)");
        if (k <= 0) i_ = at, fail("a positive integer literal (a divisor that may be 0 is no assumption)");
        e = binary(*o, std::move(e), number(k));
        continue;
      }
      return e;
    }
  }
  AssumeExpr unary() {
    if (const auto o = op({"!", "-", "~"})) {
      AssumeExpr e;
      e.kind = AssumeExpr::Kind::unary;
      e.op = *o;
      e.args.push_back(unary());
      return e;
    }
    return primary();
  }
  static AssumeExpr number(i64 v) {
    AssumeExpr e;
    e.value = v;
    return e;
  }
  // A non-negative integer literal: decimal or 0x hex, below 2^63.
  i64 literal(const std::string& expected) {
    skip();
    const std::size_t start = i_;
    int base = 10;
    if (s_.compare(i_, 2, "0x") == 0 || s_.compare(i_, 2, "0X") == 0) base = 16, i_ += 2;
    u64 v = 0;
    std::size_t digits = 0;
    for (; i_ < s_.size(); ++i_, ++digits) {
      const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s_[i_])));
      const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : base == 16 && c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) break;
      if (v > (static_cast<u64>(std::numeric_limits<i64>::max()) - static_cast<u64>(d)) / static_cast<u64>(base)) {
        i_ = start;
        fail("an integer below 2^63");
      }
      v = v * static_cast<u64>(base) + static_cast<u64>(d);
    }
    if (digits == 0) i_ = start, fail(expected);
    if (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) fail("an operator after the number");
    return static_cast<i64>(v);
  }
  AssumeExpr primary() {
    skip();
    if (i_ < s_.size() && s_[i_] == '(') {
      ++i_;
      AssumeExpr e = lor();
      skip();
      if (i_ >= s_.size() || s_[i_] != ')') fail("')'");
      ++i_;
      return e;
    }
    if (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) return number(literal("a number"));
    const std::size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == '.' || s_[i_] == '$')) ++i_;
    if (i_ == start) fail("a number, a name (pI, blockDim.x, gridDim.x, blockIdx.x, smem_bytes, a parameter's name) or '('");
    AssumeExpr e;
    e.kind = AssumeExpr::Kind::name;
    e.name = s_.substr(start, i_ - start);
    return e;
  }

  const std::string& s_;
  const std::string& what_;
  std::size_t i_ = 0;
};

i64 wrap(u64 v) { return static_cast<i64>(v); }

}  // namespace

AssumeExpr parse_assumption(const std::string& text, const std::string& what) { return Parser(text, what).all(); }

std::optional<i64> evaluate(const AssumeExpr& e, const std::function<std::optional<i64>(const AssumeExpr&)>& value_of) {
  using K = AssumeExpr::Kind;
  switch (e.kind) {
    case K::num: return e.value;
    case K::name: throw LayoutError("the assumption's name '" + e.name + "' is not bound to a launch value");
    case K::param: case K::grid: case K::cta: return value_of(e);
    case K::unary: {
      const auto a = evaluate(e.args[0], value_of);
      if (!a) return std::nullopt;
      if (e.op == "!") return i64{*a == 0};
      if (e.op == "-") return wrap(0 - static_cast<u64>(*a));
      return ~*a;
    }
    case K::binary: break;
  }
  const auto a = evaluate(e.args[0], value_of);
  // && and || decide on one side where it suffices (an unknown other side does not matter).
  if (e.op == "&&" && a && *a == 0) return 0;
  if (e.op == "||" && a && *a != 0) return 1;
  const auto b = evaluate(e.args[1], value_of);
  if (e.op == "&&" && b && *b == 0) return 0;
  if (e.op == "||" && b && *b != 0) return 1;
  if (!a || !b) return std::nullopt;
  const i64 x = *a, y = *b;
  const u64 ux = static_cast<u64>(x), uy = static_cast<u64>(y);
  const std::string& o = e.op;
  if (o == "&&") return i64{x != 0 && y != 0};
  if (o == "||") return i64{x != 0 || y != 0};
  if (o == "|") return x | y;
  if (o == "^") return x ^ y;
  if (o == "&") return x & y;
  if (o == "==") return i64{x == y};
  if (o == "!=") return i64{x != y};
  if (o == "<") return i64{x < y};
  if (o == "<=") return i64{x <= y};
  if (o == ">") return i64{x > y};
  if (o == ">=") return i64{x >= y};
  if (o == "<<") return wrap(ux << y);
  if (o == ">>") return x >> y;  // arithmetic (C++20)
  if (o == "+") return wrap(ux + uy);
  if (o == "-") return wrap(ux - uy);
  if (o == "*") return wrap(ux * uy);
  if (o == "/") return x / y;  // y > 0 (the parser): no overflow, truncation toward zero
  if (o == "%") return x % y;
  throw LayoutError("an assumption with an operator the evaluator does not know: " + o);
}

}  // namespace layoutproof::compiled
