#include "model/cpp_expr.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <utility>

#include "model/algebra.hpp"
#include "model/cpp_source.hpp"
#include "model/cute_atoms.hpp"
#include "model/cutlass_atoms.hpp"
#include "model/recast.hpp"
#include "model/tiling.hpp"

namespace layoutproof {
namespace {

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

// A ParseError whose message is the evaluator's own ("unknown function 'f'") rather than
// "expected ...", located by byte offset: "at column C of '...'" for one line, "at line L, column C"
// for multi-line source (column stays offset + 1 so ParseError::caret() finds the line).
class CppSourceError : public ParseError {
 public:
  CppSourceError(const std::string& message, std::size_t offset, const std::string& source, const std::string& label = "")
      : ParseError(message, offset + 1, source), text_(format(message, offset, source, label)) {}
  const char* what() const noexcept override { return text_.c_str(); }

 private:
  static std::string format(const std::string& message, std::size_t offset, const std::string& source,
                            const std::string& label) {
    std::string out = label.empty() ? message : label + ": " + message;
    if (source.find('\n') == std::string::npos)
      return out + " at column " + std::to_string(offset + 1) + " of '" + source + "'";
    const std::size_t at = std::min(offset, source.size());
    const std::size_t line = 1 + std::count(source.begin(), source.begin() + at, '\n');
    const std::size_t nl = at == 0 ? std::string::npos : source.rfind('\n', at - 1);
    const std::size_t col = nl == std::string::npos ? at + 1 : at - nl;
    return out + " at line " + std::to_string(line) + ", column " + std::to_string(col);
  }
  std::string text_;
};

// An overflow that already says where it happened (so outer nodes do not add their location too).
struct LocatedOverflow : OverflowError {
  using OverflowError::OverflowError;
};

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// ---------------------------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------------------------

struct Tok {
  enum class Kind { ident, number, punct, end };
  Kind kind = Kind::end;
  std::string text;   // ident, or punct ("::" or one character)
  i64 value = 0;      // number
  std::size_t pos = 0;
};

class Lexer {
 public:
  Lexer(std::string_view src, std::string label) : s_(src), label_(std::move(label)) {}

  std::vector<Tok> run() {
    std::vector<Tok> out;
    while (skip_space_and_comments()) {
      const char c = s_[i_];
      if (is_ident_start(c)) out.push_back(ident());
      else if (std::isdigit(static_cast<unsigned char>(c))) out.push_back(number());
      else out.push_back(punct());
    }
    out.push_back({Tok::Kind::end, "", 0, s_.size()});
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& message, std::size_t at) const {
    throw CppSourceError(message, at, std::string(s_), label_);
  }

  // Skips white space, // and /* */ comments; false at the end of the text.
  bool skip_space_and_comments() {
    while (i_ < s_.size()) {
      if (std::isspace(static_cast<unsigned char>(s_[i_]))) {
        ++i_;
      } else if (s_.substr(i_, 2) == "//") {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else if (s_.substr(i_, 2) == "/*") {
        const std::size_t end = s_.find("*/", i_ + 2);
        if (end == std::string_view::npos) fail("unterminated /* comment", i_);
        i_ = end + 2;
      } else {
        return true;
      }
    }
    return false;
  }

  Tok ident() {
    const std::size_t start = i_;
    while (i_ < s_.size() && is_ident_char(s_[i_])) ++i_;
    return {Tok::Kind::ident, std::string(s_.substr(start, i_ - start)), 0, start};
  }

  // C++ integer literals: decimal, 0x hex, 0b binary, 0 octal, ' separators, u/l/z suffixes.
  // Every literal must fit in 64 bits: nothing is truncated.
  Tok number() {
    const std::size_t start = i_;
    int base = 10;
    if (s_[i_] == '0' && i_ + 1 < s_.size()) {
      const char n = s_[i_ + 1];
      if (n == 'x' || n == 'X') base = 16, i_ += 2;
      else if (n == 'b' || n == 'B') base = 2, i_ += 2;
      else if (std::isdigit(static_cast<unsigned char>(n)) || n == '\'') base = 8, ++i_;
    }
    i64 v = 0;
    int digits = 0;
    for (; i_ < s_.size(); ++i_) {
      if (s_[i_] == '\'' && digits > 0) continue;
      const int d = digit_value(s_[i_]);
      if (d < 0) break;
      if (d >= base) fail("invalid digit '" + std::string(1, s_[i_]) + "' in a base-" + std::to_string(base) + " integer", i_);
      if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, d, &v))
        fail("integer literal does not fit in 64 bits", start);
      ++digits;
    }
    if (digits == 0 && base != 8) fail("an integer literal needs digits", start);
    while (i_ < s_.size() && std::string_view("uUlLzZ").find(s_[i_]) != std::string_view::npos) ++i_;
    if (i_ < s_.size() && (is_ident_char(s_[i_]) || s_[i_] == '.'))
      fail("unsupported number '" + std::string(s_.substr(start, i_ + 1 - start)) + "' (integers only)", start);
    return {Tok::Kind::number, std::string(s_.substr(start, i_ - start)), v, start};
  }

  static int digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return 10 + c - 'a';
    if (c >= 'A' && c <= 'F') return 10 + c - 'A';
    return -1;
  }

  Tok punct() {
    const std::size_t start = i_;
    if (s_.substr(i_, 2) == "::") {
      i_ += 2;
      return {Tok::Kind::punct, "::", 0, start};
    }
    const char c = s_[i_];
    if (std::string_view("(){}<>,;=+-*/%&").find(c) == std::string_view::npos) {
      const bool printable = std::isprint(static_cast<unsigned char>(c));
      fail(printable ? "unexpected character '" + std::string(1, c) + "'"
                     : "unexpected byte " + std::to_string(static_cast<unsigned char>(c)),
           start);
    }
    ++i_;
    return {Tok::Kind::punct, std::string(1, c), 0, start};
  }

  std::string_view s_;
  std::string label_;
  std::size_t i_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Parser: recursive descent with the nesting and the tree height bounded by kMaxCppDepth, so
// neither parsing, evaluation nor destruction of the tree can overflow the stack.
// ---------------------------------------------------------------------------------------------

class Parser {
 public:
  Parser(std::string_view src, std::string label) : src_(src), label_(label), toks_(Lexer(src, label).run()) {}

  CppProgram program() {
    CppProgram p;
    p.source = std::string(src_);
    while (!at_end()) {
      if (accept(";")) continue;
      if (is_word("using")) {
        using_statement(p);
        continue;
      }
      if (std::optional<CppBinding> b = declaration()) {
        add_binding(p, std::move(*b));
        continue;
      }
      p.result = expr().e;
      while (accept(";")) {
      }
      if (!at_end()) fail("end of input (only the last statement may be a bare expression)");
    }
    return p;
  }

 private:
  struct Node {
    CppExpr e;
    int height = 1;
  };

  // Counts the nesting of the recursive descent.
  struct Nest {
    explicit Nest(Parser& p) : p_(p) {
      if (++p_.nesting_ > kMaxCppDepth) p_.fail_msg("nesting deeper than " + std::to_string(kMaxCppDepth));
    }
    ~Nest() { --p_.nesting_; }
    Parser& p_;
  };

  const Tok& peek(std::size_t ahead = 0) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
  bool at_end() const { return peek().kind == Tok::Kind::end; }
  bool is(const char* punct, std::size_t ahead = 0) const {
    return peek(ahead).kind == Tok::Kind::punct && peek(ahead).text == punct;
  }
  bool is_word(const char* w, std::size_t ahead = 0) const {
    return peek(ahead).kind == Tok::Kind::ident && peek(ahead).text == w;
  }
  bool accept(const char* punct) {
    if (!is(punct)) return false;
    ++pos_;
    return true;
  }
  [[noreturn]] void fail_msg(const std::string& message) const {
    throw CppSourceError(message, peek().pos, std::string(src_), label_);
  }
  [[noreturn]] void fail(const std::string& expected) const { fail_msg("expected " + expected); }
  void expect(const char* punct) {
    if (!accept(punct)) fail(std::string("'") + punct + "'");
  }
  void expect_statement_end() {
    if (!accept(";") && !at_end()) fail("';'");
  }
  Node checked(Node n) const {
    if (n.height > kMaxCppDepth)
      throw CppSourceError("nesting deeper than " + std::to_string(kMaxCppDepth), n.e.pos, std::string(src_), label_);
    return n;
  }

  void add_binding(CppProgram& p, CppBinding b) const {
    for (const CppBinding& old : p.bindings)
      if (old.name == b.name)
        throw CppSourceError("redefinition of '" + b.name + "'", b.pos, std::string(src_), label_);
    p.bindings.push_back(std::move(b));
  }

  // using NAME = expr;   (using namespace X; is skipped)
  void using_statement(CppProgram& p) {
    ++pos_;
    if (is_word("namespace")) {
      ++pos_;
      qualified_name();
      expect_statement_end();
      return;
    }
    if (peek().kind != Tok::Kind::ident) fail("a name after 'using'");
    CppBinding b{peek().text, {}, peek().pos};
    ++pos_;
    expect("=");
    b.value = expr().e;
    expect_statement_end();
    add_binding(p, std::move(b));
  }

  // [static] [constexpr] (auto | TYPE) [const] [&] NAME = expr;  nullopt (nothing consumed) when
  // the statement is not a declaration.
  std::optional<CppBinding> declaration() {
    const std::size_t save = pos_;
    bool qualified = false;
    while (is_word("static") || is_word("constexpr") || is_word("const") || is_word("inline") || is_word("constinit")) {
      ++pos_;
      qualified = true;
    }
    if (!declared_type()) {
      if (qualified) fail("a declaration: [constexpr] auto NAME = EXPR;");
      pos_ = save;
      return std::nullopt;
    }
    while (is_word("const") || is("&")) ++pos_;
    if (peek().kind == Tok::Kind::ident && is("=", 1)) {
      CppBinding b{peek().text, {}, peek().pos};
      pos_ += 2;
      b.value = expr().e;
      expect_statement_end();
      return b;
    }
    if (qualified) fail("a declaration: [constexpr] auto NAME = EXPR;");
    pos_ = save;
    return std::nullopt;
  }

  // `auto` or a type (a name with template arguments, no call); false, with the position
  // undefined, when there is none.
  bool declared_type() {
    if (is_word("auto")) {
      ++pos_;
      return true;
    }
    if (peek().kind != Tok::Kind::ident || is_word("decltype")) return false;
    try {
      return primary().e.kind == CppExpr::Kind::name;
    } catch (const ParseError&) {
      return false;
    }
  }

  // expr := term { (+|-) term }
  Node expr() {
    Nest nest(*this);
    Node lhs = term();
    while (is("+") || is("-")) {
      const Tok op = peek();
      ++pos_;
      lhs = binary(op, std::move(lhs), term());
    }
    return lhs;
  }

  // term := unary { (*|/|%) unary }
  Node term() {
    Node lhs = unary();
    while (is("*") || is("/") || is("%")) {
      const Tok op = peek();
      ++pos_;
      lhs = binary(op, std::move(lhs), unary());
    }
    return lhs;
  }

  Node binary(const Tok& op, Node lhs, Node rhs) const {
    Node n;
    n.e.kind = CppExpr::Kind::binary;
    n.e.op = op.text[0];
    n.e.pos = op.pos;
    n.height = 1 + std::max(lhs.height, rhs.height);
    n.e.args.push_back(std::move(lhs.e));
    n.e.args.push_back(std::move(rhs.e));
    return checked(std::move(n));
  }

  // unary := - unary | + unary | primary
  Node unary() {
    if (is("-") || is("+")) {
      const Tok op = peek();
      ++pos_;
      Nest nest(*this);  // - - - ... recurses without expr()
      Node operand = unary();
      if (op.text == "+") return operand;
      Node n;
      n.e.kind = CppExpr::Kind::negate;
      n.e.pos = op.pos;
      n.height = operand.height + 1;
      n.e.args.push_back(std::move(operand.e));
      return checked(std::move(n));
    }
    return primary();
  }

  // Every recursion into a sub-expression goes through expr() (which counts the nesting) or unary().
  Node primary() {
    const Tok& t = peek();
    if (t.kind == Tok::Kind::number) {
      ++pos_;
      Node n;
      n.e.kind = CppExpr::Kind::integer;
      n.e.value = t.value;
      n.e.pos = t.pos;
      return n;
    }
    if (accept("(")) {
      Node inner = expr();
      expect(")");
      return inner;
    }
    while (is_word("typename") || is_word("template")) ++pos_;
    if (is_word("decltype")) return decltype_expr();
    if (peek().kind == Tok::Kind::ident || is("::")) return name_expr();
    fail("an expression");
  }

  // decltype(expr), optionally value-initialized: decltype(expr){}
  Node decltype_expr() {
    Node n;
    n.e.kind = CppExpr::Kind::call;
    n.e.name = "decltype";
    n.e.pos = peek().pos;
    ++pos_;
    expect("(");
    Node inner = expr();
    expect(")");
    if (is("{") && is("}", 1)) pos_ += 2;
    n.height = inner.height + 1;
    n.e.args.push_back(std::move(inner.e));
    return checked(std::move(n));
  }

  // NAME [<targs>] [{args} | (args)]
  Node name_expr() {
    Node n;
    n.e.kind = CppExpr::Kind::name;
    n.e.pos = peek().pos;
    n.e.name = qualified_name();
    int height = 0;
    if (accept("<")) {
      n.e.has_targs = true;
      n.e.targs = list(">", height);
    }
    if (accept("{")) {
      n.e.kind = CppExpr::Kind::call;
      n.e.brace = true;
      n.e.args = list("}", height);
    } else if (accept("(")) {
      n.e.kind = CppExpr::Kind::call;
      n.e.args = list(")", height);
    }
    n.height = height + 1;
    return checked(std::move(n));
  }

  // Comma-separated expressions up to `close` (consumed); `height` becomes the largest height.
  std::vector<CppExpr> list(const char* close, int& height) {
    std::vector<CppExpr> out;
    if (accept(close)) return out;
    do {
      Node item = expr();
      height = std::max(height, item.height);
      out.push_back(std::move(item.e));
    } while (accept(","));
    expect(close);
    return out;
  }

  // identifier { :: identifier }, a leading ::, cute:: and cutlass:: dropped.
  std::string qualified_name() {
    accept("::");
    std::vector<std::string> parts;
    do {
      if (peek().kind != Tok::Kind::ident) fail("a name");
      parts.push_back(peek().text);
      ++pos_;
    } while (is("::") && peek(1).kind == Tok::Kind::ident && (++pos_, true));
    std::size_t first = 0;
    while (first + 1 < parts.size() && (parts[first] == "cute" || parts[first] == "cutlass")) ++first;
    std::string name;
    for (std::size_t k = first; k < parts.size(); ++k) name += (k > first ? "::" : "") + parts[k];
    return name;
  }

  std::string_view src_;
  std::string label_;
  std::vector<Tok> toks_;
  std::size_t pos_ = 0;
  int nesting_ = 0;
};

CppProgram parse_program(std::string_view text, const std::string& label) { return Parser(text, label).program(); }

// ---------------------------------------------------------------------------------------------
// Helpers of the built-ins
// ---------------------------------------------------------------------------------------------

// A leaf IntTuple is an integer value, a tuple a tuple value.
CppValue of_int_tuple(IntTuple t) { return t.is_leaf() ? CppValue::of_int(t.value()) : CppValue::of_tuple(std::move(t)); }

// The same swizzle and offset around a new inner layout, as CuTe's composition(a, offset, b);
// Swizzle<0,M,S> with offset 0 is the identity and gives the plain layout (swizzle_layout.hpp).
AnyLayout recompose(const AnyLayout& like, Layout inner) {
  if (like.swizzle && like.swizzle->B == 0 && like.offset == 0) return AnyLayout(std::move(inner));
  return like.with_inner(std::move(inner));
}

std::string to_string(const Tiler& t) {
  switch (t.kind) {
    case Tiler::Kind::layout: return to_string(t.layout);
    case Tiler::Kind::integer: return std::to_string(t.integer);
    case Tiler::Kind::underscore: return "_";
    case Tiler::Kind::tuple: break;
  }
  std::string s = "[";
  for (std::size_t i = 0; i < t.modes.size(); ++i) s += (i ? "," : "") + to_string(t.modes[i]);
  return s + "]";
}

Tiler tiler_of_shape(const IntTuple& t) {
  if (t.is_leaf()) return Tiler::of_int(t.value());
  std::vector<Tiler> modes;
  for (const IntTuple& c : t.children()) modes.push_back(tiler_of_shape(c));
  return Tiler::by_mode(std::move(modes));
}

// compact_order (CuTe stride.hpp): mode k's stride starts at the product of the shapes of the modes
// of smaller order. Run-time (dynamic) order values count as larger than every static one, in
// their left-to-right order.
IntTuple product_like(const IntTuple& shape, const IntTuple& order) {
  if (order.is_leaf()) return IntTuple(product(shape));
  if (shape.is_leaf() || shape.rank() != order.rank())
    throw LayoutError("the order " + to_string(order) + " does not match the shape " + to_string(shape) +
                      " (Need equal rank of shape and order)");
  std::vector<IntTuple> out;
  for (std::size_t i = 0; i < order.rank(); ++i) out.push_back(product_like(shape[i], order[i]));
  return IntTuple::tuple(std::move(out));
}

void mask_leaves(const IntTuple& order, const IntTuple& mask, std::vector<bool>& out) {
  if (order.is_leaf()) {
    out.push_back(mask.is_leaf() ? mask.value() != 0 : true);
    return;
  }
  const bool aligned = mask.is_tuple() && mask.rank() == order.rank();
  for (std::size_t i = 0; i < order.rank(); ++i) mask_leaves(order[i], aligned ? mask[i] : (mask.is_leaf() ? mask : IntTuple(1)), out);
}

IntTuple compact_order_rec(const IntTuple& shape, const IntTuple& order, const std::vector<i64>& ref_shape,
                           const std::vector<i64>& ref_order) {
  if (order.is_tuple()) {
    if (shape.is_leaf() || shape.rank() != order.rank())
      throw LayoutError("the order " + to_string(order) + " does not match the shape " + to_string(shape) +
                        " (Need equal rank of shape and order)");
    std::vector<IntTuple> out;
    for (std::size_t i = 0; i < order.rank(); ++i) out.push_back(compact_order_rec(shape[i], order[i], ref_shape, ref_order));
    return IntTuple::tuple(std::move(out));
  }
  i64 start = 1;
  for (std::size_t j = 0; j < ref_order.size(); ++j)
    if (ref_order[j] < order.value()) start = checked_mul(start, ref_shape[j]);
  return compact_col_major(shape, start);
}

IntTuple compact_order(const IntTuple& shape, const IntTuple& order, const IntTuple& mask) {
  const std::vector<i64> ref_shape = leaves(product_like(shape, order));
  const std::vector<i64> flat = leaves(order);
  std::vector<bool> is_static;
  mask_leaves(order, mask, is_static);
  i64 max_order = 0;
  for (std::size_t k = 0; k < flat.size(); ++k)
    if (is_static[k] && max_order < flat[k]) max_order = flat[k];
  std::vector<i64> ref_order(flat.size());
  for (std::size_t k = 0; k < flat.size(); ++k)
    ref_order[k] = is_static[k] ? flat[k] : checked_add(max_order, static_cast<i64>(k) + 1);
  std::size_t k = 0;
  const IntTuple new_order = transform_leaves(order, [&](i64) { return ref_order[k++]; });
  return compact_order_rec(shape, new_order, ref_shape, ref_order);
}

bool all_static(const IntTuple& mask) {
  for (i64 v : leaves(mask))
    if (v == 0) return false;
  return true;
}

// Edits between a and b: insertions, deletions, substitutions and swaps of neighbours
// (optimal string alignment), so "Layuot" is one edit from "Layout".
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// Lower case without underscores: make_tiled_copyA and make_tiled_copy_A are the same word.
std::string folded(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The closest known name within one edit (two for names of 8 or more characters); among equally
// close names the one closest after folding wins.
std::optional<std::string> nearest(const std::string& name, const std::vector<std::string>& known) {
  if (name.size() < 4 || name.size() > 200) return std::nullopt;
  const std::size_t limit = name.size() < 8 ? 1 : 2;
  const std::string f = folded(name);
  std::optional<std::string> best;
  std::pair<std::size_t, std::size_t> best_score{limit + 1, 0};
  for (const std::string& k : known) {
    if (k == name || k.size() > name.size() + limit || k.size() + limit < name.size()) continue;
    const std::pair<std::size_t, std::size_t> score{edit_distance(name, k), edit_distance(f, folded(k))};
    if (score.first <= limit && score < best_score) best_score = score, best = k;
  }
  return best;
}

// The expression as written, without white space (prefixes dropped): a type name for the kernel layer.
std::string render(const CppExpr& e) {
  const auto list = [](const std::vector<CppExpr>& xs) {
    std::string out;
    for (std::size_t i = 0; i < xs.size(); ++i) out += (i ? "," : "") + render(xs[i]);
    return out;
  };
  switch (e.kind) {
    case CppExpr::Kind::integer: return std::to_string(e.value);
    case CppExpr::Kind::negate: return "-" + render(e.args[0]);
    case CppExpr::Kind::binary: return render(e.args[0]) + e.op + render(e.args[1]);
    case CppExpr::Kind::name:
    case CppExpr::Kind::call: break;
  }
  std::string out = e.name;
  if (e.has_targs) out += "<" + list(e.targs) + ">";
  if (e.kind == CppExpr::Kind::call) out += e.brace ? "{" + list(e.args) + "}" : "(" + list(e.args) + ")";
  return out;
}

// CuTe functions outside the layout algebra: named in errors (the kernel layer evaluates them
// through an extension when it is installed).
const std::vector<std::string>& kernel_layer_names() {
  static const std::vector<std::string> names = {
      "make_tiled_mma", "make_tiled_copy", "make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C",
      "make_tiled_copy_C_atom", "make_tiled_copy_S", "make_tiled_copy_D", "make_tma_copy", "make_cotiled_copy",
      "Copy_Atom", "MMA_Atom", "TiledMMA", "TiledCopy", "local_tile", "local_partition", "make_tensor",
      "make_smem_ptr", "make_gmem_ptr", "partition_fragment_A", "partition_fragment_B", "partition_fragment_C",
      "get_slice", "retile_S", "retile_D", "tile_size", "make_fragment_like", "make_layout_like", "recast_layout",
      "downcast", "recast", "make_swizzle", "flat_divide", "flat_product", "ss_smem_selector", "rs_smem_selector"};
  return names;
}

// "GMMA::Layout_K_SW128_Atom" for the names CUTLASS gives its GMMA/UMMA shared-memory atoms
// (UMMA's K/MN atoms are GMMA's: mma_traits_sm100.hpp), nullopt for any other name.
std::optional<std::string> gmma_atom_name(std::string name) {
  for (const char* prefix : {"SM90::", "SM100::"})
    if (name.rfind(prefix, 0) == 0) name = name.substr(std::string_view(prefix).size());
  if (name.rfind("UMMA::", 0) == 0 && name != "UMMA::Layout_MN_SW128_32B_Atom") name = "GMMA::" + name.substr(6);
  if (name.rfind("Layout_", 0) == 0) name = "GMMA::" + name;  // after `using namespace cute::GMMA;`
  for (const CutlassAtom& a : cutlass_atoms())
    if (a.name == name) return name;
  return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// CppValue
// ---------------------------------------------------------------------------------------------

CppValue CppValue::of_int(i64 v) {
  CppValue r;
  r.kind = Kind::integer;
  r.integer = v;
  return r;
}
CppValue CppValue::of_tuple(IntTuple t) {
  CppValue r;
  r.kind = Kind::tuple;
  r.tuple = std::move(t);
  return r;
}
CppValue CppValue::of_layout(AnyLayout l) {
  CppValue r;
  r.kind = Kind::layout;
  r.layout = std::move(l);
  return r;
}
CppValue CppValue::of_swizzle(Swizzle s) {
  CppValue r;
  r.kind = Kind::swizzle;
  r.swizzle = s;
  return r;
}
CppValue CppValue::of_type(std::string name) {
  CppValue r;
  r.kind = Kind::type;
  r.type_name = std::move(name);
  return r;
}
CppValue CppValue::of_underscore() {
  CppValue r;
  r.kind = Kind::underscore;
  return r;
}
CppValue CppValue::of_object(std::string kind, std::any value) {
  CppValue r;
  r.kind = Kind::object;
  r.object_kind = std::move(kind);
  r.object = std::move(value);
  return r;
}

std::string CppValue::describe() const {
  switch (kind) {
    case Kind::integer: return "integer " + std::to_string(integer);
    case Kind::tuple: return "tuple " + to_string(tuple);
    case Kind::layout: return "layout " + to_string(layout);
    case Kind::swizzle: return "swizzle " + to_string(swizzle);
    case Kind::type: return "type " + type_name;
    case Kind::underscore: return "_";
    case Kind::object: break;
  }
  if (const Tiler* t = std::any_cast<Tiler>(&object)) return object_kind + " " + to_string(*t);
  return object_kind;
}

// ---------------------------------------------------------------------------------------------
// Parsing entry point
// ---------------------------------------------------------------------------------------------

CppProgram parse_cpp_program(std::string_view text) { return parse_program(text, ""); }

// ---------------------------------------------------------------------------------------------
// The built-ins
// ---------------------------------------------------------------------------------------------

struct CppBuiltins {
  using Handler = CppValue (*)(CppEvaluator&, const CppExpr&);
  static const std::map<std::string, Handler>& table();

  // --- argument forms ---

  // T, T<...>, T{} or T(): a type or a constant (no arguments).
  static void value_form(CppEvaluator& ev, const CppExpr& e) {
    if (e.kind == CppExpr::Kind::call && !e.args.empty())
      ev.fail(e.args.front(), "'" + e.name + "' takes no arguments here (write " + e.name + (e.has_targs ? "<...>" : "") + "{})");
  }
  static void no_targs(CppEvaluator& ev, const CppExpr& e) {
    if (e.has_targs) ev.fail(e, "'" + e.name + "' takes no template arguments");
  }
  // f(args) with lo..hi arguments.
  static const std::vector<CppExpr>& call(CppEvaluator& ev, const CppExpr& e, std::size_t lo, std::size_t hi) {
    if (e.kind != CppExpr::Kind::call || e.brace)
      ev.fail(e, "'" + e.name + "' is a function: call it as " + e.name + "(...)");
    if (e.args.size() < lo || e.args.size() > hi) {
      const std::string want = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
      ev.fail(e, e.name + " takes " + want + " argument" + (hi == 1 ? "" : "s") + ", not " + std::to_string(e.args.size()));
    }
    return e.args;
  }
  static std::vector<i64> int_targs(CppEvaluator& ev, const CppExpr& e) {
    std::vector<i64> out;
    for (const CppExpr& t : e.targs) out.push_back(ev.eval_int(t));
    return out;
  }
  static void targ_count(CppEvaluator& ev, const CppExpr& e, std::size_t lo, std::size_t hi) {
    if (!e.has_targs || e.targs.size() < lo || e.targs.size() > hi)
      ev.fail(e, e.name + " takes " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                     " template argument" + (hi == 1 ? "" : "s"));
  }

  // --- value conversions ---

  static AnyLayout layout_arg(CppEvaluator& ev, const CppExpr& a) {
    const CppValue v = ev.eval(a);
    if (v.kind != CppValue::Kind::layout) ev.fail(a, "expected a layout, got " + v.describe());
    return v.layout;
  }
  static Layout plain_arg(CppEvaluator& ev, const CppExpr& a, const std::string& op) {
    const AnyLayout l = layout_arg(ev, a);
    if (l.is_swizzled()) ev.fail(a, op + " of a swizzled layout (" + to_string(l) + ") is not supported");
    return l.layout;
  }
  static Tiler tiler_of(CppEvaluator& ev, const CppExpr& at, const CppValue& v) {
    switch (v.kind) {
      case CppValue::Kind::integer: return Tiler::of_int(v.integer);
      case CppValue::Kind::tuple: return tiler_of_shape(v.tuple);
      case CppValue::Kind::underscore: return Tiler::underscore();
      case CppValue::Kind::layout:
        if (!v.layout.is_swizzled()) return Tiler::of(v.layout.layout);
        break;
      case CppValue::Kind::object:
        if (const Tiler* t = std::any_cast<Tiler>(&v.object)) return *t;
        break;
      default: break;
    }
    ev.fail(at, "expected a tiler (a layout, an integer, _ or make_tile(...)), got " + v.describe());
  }
  static Tiler tiler_arg(CppEvaluator& ev, const CppExpr& a) { return tiler_of(ev, a, ev.eval(a)); }

  // --- integers, tuples, tags ---

  // Int<N> (an int in C++: Int<4294967299> does not compile), C<N> (any integral constant).
  static CppValue int_type(CppEvaluator& ev, const CppExpr& e) {
    value_form(ev, e);
    targ_count(ev, e, 1, 1);
    const i64 v = ev.eval_int(e.targs[0]);
    if (e.name == "Int" && (v < INT_MIN || v > INT_MAX))
      ev.fail(e.targs[0], "Int<" + std::to_string(v) + ">: CuTe's Int<v> takes an int (32 bits)");
    return CppValue::of_int(v);
  }
  static CppValue tuple_type(CppEvaluator& ev, const CppExpr& e) {
    value_form(ev, e);
    std::vector<IntTuple> items;
    for (const CppExpr& t : e.targs) items.push_back(ev.eval_tuple(t));
    return CppValue::of_tuple(IntTuple::tuple(std::move(items)));
  }
  static CppValue make_tuple(CppEvaluator& ev, const CppExpr& e) {
    no_targs(ev, e);
    call(ev, e, 0, SIZE_MAX);
    std::vector<IntTuple> items;
    for (const CppExpr& a : e.args) items.push_back(ev.eval_tuple(a));
    return CppValue::of_tuple(IntTuple::tuple(std::move(items)));
  }
  // make_tile / Tile<...>: a tuple when every element is an integer or a tuple (CuTe's
  // Tile<_32,_32,_16>), else a by-mode tiler (object "Tile" holding a Tiler).
  static CppValue tile_of(CppEvaluator& ev, const std::vector<CppExpr>& items) {
    std::vector<CppValue> vals;
    bool all_ints = true;
    for (const CppExpr& a : items) {
      vals.push_back(ev.eval(a));
      all_ints = all_ints && (vals.back().kind == CppValue::Kind::integer || vals.back().kind == CppValue::Kind::tuple);
    }
    if (all_ints) {
      std::vector<IntTuple> t;
      for (const CppValue& v : vals) t.push_back(v.kind == CppValue::Kind::integer ? IntTuple(v.integer) : v.tuple);
      return CppValue::of_tuple(IntTuple::tuple(std::move(t)));
    }
    std::vector<Tiler> modes;
    for (std::size_t i = 0; i < items.size(); ++i) modes.push_back(tiler_of(ev, items[i], vals[i]));
    return CppValue::of_object("Tile", Tiler::by_mode(std::move(modes)));
  }
  static CppValue make_tile(CppEvaluator& ev, const CppExpr& e) {
    no_targs(ev, e);
    return tile_of(ev, call(ev, e, 1, SIZE_MAX));
  }
  static CppValue tile_type(CppEvaluator& ev, const CppExpr& e) {
    value_form(ev, e);
    return tile_of(ev, e.targs);
  }
  static CppValue tag(CppEvaluator& ev, const CppExpr& e) {
    value_form(ev, e);
    no_targs(ev, e);
    const bool left = e.name == "LayoutLeft" || e.name == "GenColMajor";
    return CppValue::of_type(left ? "LayoutLeft" : "LayoutRight");
  }
  static CppValue underscore(CppEvaluator& ev, const CppExpr& e) {
    value_form(ev, e);
    no_targs(ev, e);
    return CppValue::of_underscore();
  }
  static CppValue sizeof_bits(CppEvaluator& ev, const CppExpr& e) {
    value_form(ev, e);
    targ_count(ev, e, 1, 1);
    const CppValue t = ev.eval(e.targs[0]);
    const std::optional<int> bits = t.kind == CppValue::Kind::type ? type_bits(t.type_name) : std::nullopt;
    if (!bits) ev.fail(e.targs[0], "expected an element type (half_t, float, ...), got " + t.describe());
    return CppValue::of_int(*bits);
  }

  // --- layouts ---

  // Layout<Shape[, Stride]>: strides default to compact column-major (LayoutLeft::Apply).
  static CppValue layout_type(CppEvaluator& ev, const CppExpr& e) {
    value_form(ev, e);
    targ_count(ev, e, 1, 2);
    const IntTuple shape = ev.eval_tuple(e.targs[0]);
    const IntTuple stride = e.targs.size() == 2 ? ev.eval_tuple(e.targs[1]) : compact_col_major(shape);
    return CppValue::of_layout(Layout(shape, stride));
  }
  static CppValue swizzle_type(CppEvaluator& ev, const CppExpr& e) {
    value_form(ev, e);
    targ_count(ev, e, 3, 3);
    int p[3];
    for (int k = 0; k < 3; ++k) {
      const i64 v = ev.eval_int(e.targs[k]);
      if (v < -64 || v > 64) ev.fail(e.targs[k], "a Swizzle parameter must lie in -64..64, not " + std::to_string(v));
      p[k] = static_cast<int>(v);
    }
    const Swizzle s{p[0], p[1], p[2]};
    s.validate();
    return CppValue::of_swizzle(s);
  }
  // make_layout(shape[, stride | LayoutLeft{} | LayoutRight{}]) or make_layout(L0, L1, ...).
  static CppValue make_layout(CppEvaluator& ev, const CppExpr& e) {
    no_targs(ev, e);
    const auto& args = call(ev, e, 1, SIZE_MAX);
    const CppValue first = ev.eval(args[0]);
    if (first.kind == CppValue::Kind::layout) {
      std::vector<Layout> modes;
      for (const CppExpr& a : args) modes.push_back(plain_arg(ev, a, "make_layout"));
      return CppValue::of_layout(Layout::concat(modes));
    }
    if (args.size() > 2) ev.fail(args[2], "make_layout(shape, stride) takes 2 arguments (several arguments must all be layouts)");
    const IntTuple shape = ev.eval_tuple(args[0]);
    if (args.size() == 1) return CppValue::of_layout(Layout(shape, compact_col_major(shape)));
    const CppValue second = ev.eval(args[1]);
    if (second.kind == CppValue::Kind::type && second.type_name == "LayoutLeft")
      return CppValue::of_layout(Layout(shape, compact_col_major(shape)));
    if (second.kind == CppValue::Kind::type && second.type_name == "LayoutRight")
      return CppValue::of_layout(Layout(shape, compact_row_major(shape)));
    if (second.kind == CppValue::Kind::integer) return CppValue::of_layout(Layout(shape, IntTuple(second.integer)));
    if (second.kind == CppValue::Kind::tuple) return CppValue::of_layout(Layout(shape, second.tuple));
    ev.fail(args[1], "expected a stride, LayoutLeft{} or LayoutRight{}, got " + second.describe());
  }
  static CppValue make_ordered_layout(CppEvaluator& ev, const CppExpr& e) {
    no_targs(ev, e);
    const auto& args = call(ev, e, 2, 2);
    const IntTuple shape = ev.eval_tuple(args[0]);
    return CppValue::of_layout(Layout(shape, order_strides(ev, args[1], shape)));
  }
  static CppValue compact_order_fn(CppEvaluator& ev, const CppExpr& e) {
    no_targs(ev, e);
    const auto& args = call(ev, e, 2, 2);
    return of_int_tuple(order_strides(ev, args[1], ev.eval_tuple(args[0])));
  }
  static CppValue compact_major(CppEvaluator& ev, const CppExpr& e) {
    no_targs(ev, e);
    const bool left = e.name == "compact_col_major";
    const auto& args = call(ev, e, 1, left ? 2 : 1);
    const IntTuple shape = ev.eval_tuple(args[0]);
    if (!left) return of_int_tuple(compact_row_major(shape));
    return of_int_tuple(compact_col_major(shape, args.size() == 2 ? ev.eval_int(args[1]) : 1));
  }
  // The strides compact_order(shape, order) gives; order is a tuple/integer or LayoutLeft/LayoutRight.
  static IntTuple order_strides(CppEvaluator& ev, const CppExpr& order, const IntTuple& shape) {
    const CppValue o = ev.eval(order);
    if (o.kind == CppValue::Kind::type && o.type_name == "LayoutLeft") return compact_col_major(shape);
    if (o.kind == CppValue::Kind::type && o.type_name == "LayoutRight") return compact_row_major(shape);
    if (o.kind != CppValue::Kind::integer && o.kind != CppValue::Kind::tuple)
      ev.fail(order, "expected an order (Step<...>{}, make_step(...), LayoutLeft{} or LayoutRight{}), got " + o.describe());
    const IntTuple t = o.kind == CppValue::Kind::integer ? IntTuple(o.integer) : o.tuple;
    return compact_order(shape, t, ev.static_mask(order, 0));
  }

  // tile_to_shape(block, trg_shape[, order]) (CuTe layout.hpp): blocked_product(block, ordered
  // layout of ceil_div(product_each(trg_shape), product_each(shape(block)))); a static target
  // must be divided evenly. A swizzled block tiles its inner layout (layout_composed.hpp).
  static CppValue tile_to_shape(CppEvaluator& ev, const CppExpr& e) {
    no_targs(ev, e);
    const auto& args = call(ev, e, 2, 3);
    const AnyLayout block = layout_arg(ev, args[0]);
    const IntTuple trg = ev.eval_tuple(args[1]);
    const std::size_t r = trg.rank();
    if (block.layout.rank() > r)
      ev.fail(e, "tile_to_shape: the block " + to_string(block.layout) + " has rank " + std::to_string(block.layout.rank()) +
                     ", more than the target shape " + to_string(trg) + " (Rank of layout must be <= rank of target shape)");
    const bool trg_static = all_static(ev.static_mask(args[1], 0));
    std::vector<IntTuple> product_shape;
    for (std::size_t i = 0; i < r; ++i) {
      const i64 b = i < block.layout.rank() ? product(block.layout.shape[i]) : 1;
      const i64 t = product(trg[i]);
      if (b <= 0) ev.fail(args[0], "tile_to_shape: block mode " + std::to_string(i) + " has size " + std::to_string(b) + " (must be positive)");
      if (t <= 0) ev.fail(args[1], "tile_to_shape: target mode " + std::to_string(i) + " has size " + std::to_string(t) + " (must be positive)");
      if (trg_static && t % b != 0)
        ev.fail(e, "tile_to_shape: block shape does not divide the target shape (mode " + std::to_string(i) + ": " +
                       std::to_string(b) + " does not divide " + std::to_string(t) + ")");
      product_shape.emplace_back(ceil_div(t, b));
    }
    const IntTuple ps = IntTuple::tuple(std::move(product_shape));
    const IntTuple strides = args.size() == 3 ? order_strides(ev, args[2], ps) : compact_col_major(ps);
    return CppValue::of_layout(recompose(block, blocked_product(block.layout, Layout(ps, strides))));
  }

  // composition(sw, layout), composition(sw, offset, layout), composition(A, B), composition(A, tiler),
  // make_composed_layout(sw, offset, layout).
  static CppValue composition(CppEvaluator& ev, const CppExpr& e) {
    no_targs(ev, e);
    const bool make = e.name == "make_composed_layout";
    const auto& args = call(ev, e, make ? 3 : 2, 3);
    const CppValue a = ev.eval(args[0]);
    if (a.kind == CppValue::Kind::swizzle) {
      const i64 offset = args.size() == 3 ? ev.eval_int(args[1]) : 0;
      const AnyLayout l = layout_arg(ev, args.back());
      if (l.is_swizzled()) ev.fail(args.back(), "a swizzle composed with a swizzled layout is not supported");
      const Layout& inner = l.layout;
      if (!make && a.swizzle.B == 0 && offset == 0) return CppValue::of_layout(inner);  // CuTe's identity overload
      return CppValue::of_layout(AnyLayout(a.swizzle, offset, inner));
    }
    if (args.size() == 3 || make) ev.fail(args[0], "expected a Swizzle<B,M,S>{} first, got " + a.describe());
    if (a.kind != CppValue::Kind::layout) ev.fail(args[0], "expected a layout or a Swizzle<B,M,S>{}, got " + a.describe());
    const CppValue b = ev.eval(args[1]);
    if (b.kind == CppValue::Kind::layout && b.layout.is_swizzled())
      ev.fail(args[1], "composition(layout, swizzled layout) is not supported");
    if (b.kind == CppValue::Kind::swizzle) ev.fail(args[1], "composition(layout, swizzle) is not supported");
    const Tiler t = tiler_of(ev, args[1], b);
    if (t.kind == Tiler::Kind::layout) return CppValue::of_layout(recompose(a.layout, layoutproof::composition(a.layout.layout, t.layout)));
    return CppValue::of_layout(recompose(a.layout, layoutproof::composition(a.layout.layout, t)));
  }

  // --- queries: get<I...>, size, shape, stride, rank, depth, cosize ---

  // The mode x<I0><I1>... of a value.
  static CppValue select(CppEvaluator& ev, const CppExpr& at, CppValue v, const std::vector<i64>& idx) {
    for (const i64 i : idx) {
      if (i < 0) ev.fail(at, "a mode index must not be negative");
      const auto k = static_cast<std::size_t>(i);
      if (v.kind == CppValue::Kind::layout) v = CppValue::of_layout(recompose(v.layout, v.layout.layout.mode(k)));
      else if (v.kind == CppValue::Kind::tuple) v = of_int_tuple(v.tuple[k]);
      else if (v.kind == CppValue::Kind::integer) v = of_int_tuple(IntTuple(v.integer)[k]);
      else ev.fail(at, "cannot take mode " + std::to_string(i) + " of " + v.describe());
    }
    return v;
  }
  static CppValue selected(CppEvaluator& ev, const CppExpr& e) {
    const auto& args = call(ev, e, 1, 1);
    return select(ev, e, ev.eval(args[0]), int_targs(ev, e));
  }
  static CppValue get(CppEvaluator& ev, const CppExpr& e) {
    targ_count(ev, e, 1, SIZE_MAX);
    return selected(ev, e);
  }
  static IntTuple shape_of(CppEvaluator& ev, const CppExpr& at, const CppValue& v) {
    if (v.kind == CppValue::Kind::layout) return v.layout.layout.shape;
    if (v.kind == CppValue::Kind::tuple) return v.tuple;
    if (v.kind == CppValue::Kind::integer) return IntTuple(v.integer);
    ev.fail(at, "expected a layout or a shape, got " + v.describe());
  }
  static CppValue size(CppEvaluator& ev, const CppExpr& e) { return CppValue::of_int(product(shape_of(ev, e, selected(ev, e)))); }
  static CppValue shape(CppEvaluator& ev, const CppExpr& e) { return of_int_tuple(shape_of(ev, e, selected(ev, e))); }
  static CppValue rank(CppEvaluator& ev, const CppExpr& e) {
    return CppValue::of_int(static_cast<i64>(shape_of(ev, e, selected(ev, e)).rank()));
  }
  static CppValue depth(CppEvaluator& ev, const CppExpr& e) { return CppValue::of_int(layoutproof::depth(shape_of(ev, e, selected(ev, e)))); }
  static CppValue stride(CppEvaluator& ev, const CppExpr& e) {
    const CppValue v = selected(ev, e);
    if (v.kind != CppValue::Kind::layout) ev.fail(e.args[0], "expected a layout, got " + v.describe());
    return of_int_tuple(v.layout.layout.stride);
  }
  static CppValue cosize(CppEvaluator& ev, const CppExpr& e) {
    const CppValue v = selected(ev, e);
    if (v.kind != CppValue::Kind::layout) ev.fail(e.args[0], "expected a layout, got " + v.describe());
    return CppValue::of_int(layoutproof::cosize(v.layout));
  }
  static CppValue product_fn(CppEvaluator& ev, const CppExpr& e) {
    no_targs(ev, e);
    return CppValue::of_int(product(ev.eval_tuple(call(ev, e, 1, 1)[0])));
  }

  // --- the algebra (swizzled layouts act on their inner layout, as layout_composed.hpp does) ---

  static CppValue coalesce(CppEvaluator& ev, const CppExpr& e) {
    no_targs(ev, e);
    const auto& args = call(ev, e, 1, 2);
    const AnyLayout l = layout_arg(ev, args[0]);
    if (args.size() == 2) return CppValue::of_layout(recompose(l, layoutproof::coalesce(l.layout, ev.eval_tuple(args[1]))));
    return CppValue::of_layout(recompose(l, layoutproof::coalesce(l.layout)));
  }
  static CppValue unary_layout_op(CppEvaluator& ev, const CppExpr& e) {
    no_targs(ev, e);
    const auto& args = call(ev, e, 1, 1);
    const CppValue v = ev.eval(args[0]);
    if (e.name == "flatten" && v.kind == CppValue::Kind::tuple) return of_int_tuple(layoutproof::flatten(v.tuple));
    if (v.kind != CppValue::Kind::layout) ev.fail(args[0], "expected a layout, got " + v.describe());
    const AnyLayout& l = v.layout;
    if (e.name == "flatten") return CppValue::of_layout(recompose(l, Layout(layoutproof::flatten(l.layout.shape), layoutproof::flatten(l.layout.stride))));
    if (e.name == "filter") return CppValue::of_layout(recompose(l, layoutproof::filter(l.layout)));
    if (e.name == "filter_zeros") return CppValue::of_layout(recompose(l, layoutproof::filter_zeros(l.layout)));
    if (l.is_swizzled()) ev.fail(args[0], e.name + " of a swizzled layout is not supported");
    if (e.name == "right_inverse") return CppValue::of_layout(layoutproof::right_inverse(l.layout));
    return CppValue::of_layout(layoutproof::left_inverse(l.layout));
  }
  static CppValue complement(CppEvaluator& ev, const CppExpr& e) {
    no_targs(ev, e);
    const auto& args = call(ev, e, 1, 2);
    const Layout l = plain_arg(ev, args[0], "complement");
    if (args.size() == 1) return CppValue::of_layout(layoutproof::complement(l));
    return CppValue::of_layout(layoutproof::complement(l, ev.eval_tuple(args[1])));
  }
  static CppValue upcast(CppEvaluator& ev, const CppExpr& e) {
    targ_count(ev, e, 1, 1);
    const i64 n = ev.eval_int(e.targs[0]);
    return CppValue::of_layout(layoutproof::upcast(layout_arg(ev, call(ev, e, 1, 1)[0]), n));
  }
  static CppValue by_tiler(CppEvaluator& ev, const CppExpr& e) {
    no_targs(ev, e);
    const auto& args = call(ev, e, 2, 2);
    const AnyLayout a = layout_arg(ev, args[0]);
    const Tiler t = tiler_arg(ev, args[1]);
    using Op = Layout (*)(const Layout&, const Tiler&);
    static const std::map<std::string, Op> ops = {
        {"logical_divide", &logical_divide},   {"zipped_divide", &zipped_divide},   {"tiled_divide", &tiled_divide},
        {"logical_product", &logical_product}, {"zipped_product", &zipped_product}, {"tiled_product", &tiled_product}};
    return CppValue::of_layout(recompose(a, ops.at(e.name)(a.layout, t)));
  }
  static CppValue rank_product(CppEvaluator& ev, const CppExpr& e) {
    no_targs(ev, e);
    const auto& args = call(ev, e, 2, 2);
    const AnyLayout a = layout_arg(ev, args[0]);
    const Layout b = plain_arg(ev, args[1], e.name + " by");
    const Layout r = e.name == "blocked_product" ? blocked_product(a.layout, b) : raked_product(a.layout, b);
    return CppValue::of_layout(recompose(a, r));
  }

  // GMMA::Layout_K_SW128_Atom<T> etc.: CUTLASS's atoms in units of T (model/cutlass_atoms.hpp).
  static CppValue gmma_atom(CppEvaluator& ev, const CppExpr& e, const std::string& name) {
    value_form(ev, e);
    if (!e.has_targs || e.targs.size() != 1) ev.fail(e, name + " needs the element type: " + name + "<half_t>");
    const CppValue t = ev.eval(e.targs[0]);
    const std::optional<int> bits = t.kind == CppValue::Kind::type ? type_bits(t.type_name) : std::nullopt;
    if (!bits) ev.fail(e.targs[0], "expected an element type (half_t, float, ...), got " + t.describe());
    std::string widths;
    for (const CutlassAtom& a : cutlass_atoms()) {
      if (a.name != name) continue;
      if (a.element_bits == *bits) return CppValue::of_layout(a.layout());
      widths += (widths.empty() ? "" : ", ") + std::to_string(a.element_bits);
    }
    ev.fail(e.targs[0], name + " for " + std::to_string(*bits) + "-bit elements is not in layoutproof's table (it has " + widths + ")");
  }
};

const std::map<std::string, CppBuiltins::Handler>& CppBuiltins::table() {
  using B = CppBuiltins;
  static const std::map<std::string, Handler> t = {
      {"Int", &B::int_type}, {"C", &B::int_type},
      {"Shape", &B::tuple_type}, {"Stride", &B::tuple_type}, {"Step", &B::tuple_type}, {"Coord", &B::tuple_type},
      {"tuple", &B::tuple_type}, {"Tile", &B::tile_type},
      {"make_shape", &B::make_tuple}, {"make_stride", &B::make_tuple}, {"make_step", &B::make_tuple},
      {"make_coord", &B::make_tuple}, {"make_tuple", &B::make_tuple}, {"make_tile", &B::make_tile},
      {"LayoutLeft", &B::tag}, {"LayoutRight", &B::tag}, {"GenColMajor", &B::tag}, {"GenRowMajor", &B::tag},
      {"_", &B::underscore}, {"sizeof_bits_v", &B::sizeof_bits},
      {"Layout", &B::layout_type}, {"Swizzle", &B::swizzle_type}, {"make_layout", &B::make_layout},
      {"make_ordered_layout", &B::make_ordered_layout}, {"compact_order", &B::compact_order_fn},
      {"compact_col_major", &B::compact_major}, {"compact_row_major", &B::compact_major},
      {"tile_to_shape", &B::tile_to_shape}, {"composition", &B::composition}, {"make_composed_layout", &B::composition},
      {"get", &B::get}, {"size", &B::size}, {"shape", &B::shape}, {"stride", &B::stride}, {"rank", &B::rank},
      {"depth", &B::depth}, {"cosize", &B::cosize}, {"product", &B::product_fn},
      {"coalesce", &B::coalesce}, {"flatten", &B::unary_layout_op}, {"filter", &B::unary_layout_op},
      {"filter_zeros", &B::unary_layout_op}, {"right_inverse", &B::unary_layout_op}, {"left_inverse", &B::unary_layout_op},
      {"complement", &B::complement}, {"upcast", &B::upcast},
      {"logical_divide", &B::by_tiler}, {"zipped_divide", &B::by_tiler}, {"tiled_divide", &B::by_tiler},
      {"logical_product", &B::by_tiler}, {"zipped_product", &B::by_tiler}, {"tiled_product", &B::by_tiler},
      {"blocked_product", &B::rank_product}, {"raked_product", &B::rank_product},
  };
  return t;
}

// ---------------------------------------------------------------------------------------------
// CppEvaluator
// ---------------------------------------------------------------------------------------------

namespace {

// Restores a variable when a scope ends (also by an exception).
template <class T>
struct Restore {
  Restore(T& var, T value) : var_(var), old_(std::exchange(var, std::move(value))) {}
  ~Restore() { var_ = std::move(old_); }
  T& var_;
  T old_;
};

// "f" or "f<...>" for messages.
std::string head(const CppExpr& e) {
  switch (e.kind) {
    case CppExpr::Kind::integer: return std::to_string(e.value);
    case CppExpr::Kind::binary: return std::string("operator") + e.op;
    case CppExpr::Kind::negate: return "unary -";
    default: return e.name + (e.has_targs ? "<...>" : "");
  }
}

}  // namespace

CppEvaluator::CppEvaluator(CppProgram program, std::map<std::string, std::string> constants)
    : program_(std::move(program)), visible_(program_.bindings.size()) {
  for (auto& [name, text] : constants) {
    CppProgram p = parse_program(text, "-D " + name);
    if (!p.bindings.empty() || !p.result)
      throw CppSourceError("a -D constant is one expression, e.g. -D bM=Int<128>{}", 0, text, "-D " + name);
    constants_.emplace(name, std::move(p));
  }
}

void CppEvaluator::add_extension(Extension e) { extensions_.push_back(std::move(e)); }

void CppEvaluator::fail(const CppExpr& at, const std::string& message) const {
  if (in_constant_.empty()) throw CppSourceError(message, at.pos, program_.source);
  throw CppSourceError(message, at.pos, constants_.at(in_constant_).source, "-D " + in_constant_);
}

namespace {

// Runs f, attributing the model's errors to the node e (ParseErrors already carry their place).
template <class F>
auto located(const CppEvaluator& ev, const CppExpr& e, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const ParseError&) {
    throw;
  } catch (const LocatedOverflow&) {
    throw;
  } catch (const OverflowError& x) {
    // Keep the type (callers tell overflow from other errors) and add where it happened.
    try {
      ev.fail(e, std::string(x.what()) + " (in " + head(e) + ")");
    } catch (const ParseError& where) {
      throw LocatedOverflow(where.what());
    }
  } catch (const LayoutError& x) {
    ev.fail(e, x.what());
  }
}

i64 arithmetic(const CppEvaluator& ev, const CppExpr& e, i64 a, i64 b) {
  switch (e.op) {
    case '+': return checked_add(a, b);
    case '-': return checked_sub(a, b);
    case '*': return checked_mul(a, b);
    default: break;
  }
  if (b == 0) ev.fail(e, "division by zero");
  if (a == INT64_MIN && b == -1) throw OverflowError("64-bit overflow: " + std::to_string(a) + " / -1");
  return e.op == '/' ? a / b : a % b;
}

}  // namespace

CppValue CppEvaluator::eval(const CppExpr& e) {
  // The tree is at most kMaxCppDepth high; bindings and constants add a hop each.
  Restore<int> guard(depth_, depth_ + 1);
  if (depth_ > 2 * kMaxCppDepth) fail(e, "nesting deeper than " + std::to_string(2 * kMaxCppDepth) + " (through bindings)");
  switch (e.kind) {
    case CppExpr::Kind::integer: return CppValue::of_int(e.value);
    case CppExpr::Kind::negate: {
      const i64 v = eval_int(e.args[0]);
      return located(*this, e, [&] { return CppValue::of_int(checked_sub(0, v)); });
    }
    case CppExpr::Kind::binary: {
      const i64 a = eval_int(e.args[0]);
      const i64 b = eval_int(e.args[1]);
      return located(*this, e, [&] { return CppValue::of_int(arithmetic(*this, e, a, b)); });
    }
    case CppExpr::Kind::name:
    case CppExpr::Kind::call: break;
  }
  return eval_node(e);
}

// Extensions first, then decltype, the bindings and constants, then the built-ins.
CppValue CppEvaluator::eval_node(const CppExpr& e) {
  for (const Extension& x : extensions_) {
    std::optional<CppValue> v = located(*this, e, [&] { return x(e, *this); });
    if (v) return *v;
  }
  if (e.kind == CppExpr::Kind::call && e.name == "decltype") return eval(e.args.at(0));
  if (std::optional<CppValue> v = resolve_name(e)) return *v;
  return eval_builtin(e);
}

std::optional<std::size_t> CppEvaluator::find_binding(const std::string& name) const {
  for (std::size_t i = std::min(visible_, program_.bindings.size()); i-- > 0;)
    if (program_.bindings[i].name == name) return i;
  return std::nullopt;
}

std::optional<CppValue> CppEvaluator::resolve_name(const CppExpr& e) {
  if (e.has_targs) return std::nullopt;
  const std::optional<std::size_t> b = find_binding(e.name);
  const bool constant = !b && constants_.count(e.name);
  if (!b && !constant) return std::nullopt;
  if (e.kind == CppExpr::Kind::call && !e.args.empty())
    fail(e, "'" + e.name + "' is a value, not a function (write " + e.name + " or " + e.name + "{})");
  return b ? eval_binding(*b) : eval_constant(e.name, e);
}

CppValue CppEvaluator::eval_binding(std::size_t index) {
  if (auto it = binding_values_.find(index); it != binding_values_.end()) return it->second;
  CppValue v;
  {
    // A binding sees the bindings before it, in the program's source.
    Restore<std::size_t> scope(visible_, index);
    Restore<std::string> source(in_constant_, std::string());
    v = eval(program_.bindings[index].value);
  }
  binding_values_[index] = v;
  return v;
}

CppValue CppEvaluator::eval_constant(const std::string& name, const CppExpr& at) {
  if (auto it = constant_values_.find(name); it != constant_values_.end()) return it->second;
  if (std::find(constants_in_progress_.begin(), constants_in_progress_.end(), name) != constants_in_progress_.end())
    fail(at, "the constant '" + name + "' is defined through itself");
  constants_in_progress_.push_back(name);
  CppValue v;
  try {
    // A constant sees the other constants and the built-ins, not the program's bindings.
    Restore<std::size_t> scope(visible_, 0);
    Restore<std::string> source(in_constant_, name);
    v = eval(*constants_.at(name).result);
  } catch (...) {
    constants_in_progress_.pop_back();
    throw;
  }
  constants_in_progress_.pop_back();
  constant_values_[name] = v;
  return v;
}

CppValue CppEvaluator::eval_builtin(const CppExpr& e) {
  if (std::optional<std::string> atom = gmma_atom_name(e.name))
    return located(*this, e, [&] { return CppBuiltins::gmma_atom(*this, e, *atom); });
  // _8: CuTe's Int<8>.
  if (e.name.size() > 1 && e.name[0] == '_' && std::all_of(e.name.begin() + 1, e.name.end(), ::isdigit)) {
    CppBuiltins::value_form(*this, e);
    CppBuiltins::no_targs(*this, e);
    i64 v = 0;
    for (char c : e.name.substr(1))
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, c - '0', &v) || v > INT_MAX)
        fail(e, "'" + e.name + "' does not fit in an int");
    return CppValue::of_int(v);
  }
  const auto& table = CppBuiltins::table();
  if (auto it = table.find(e.name); it != table.end()) return located(*this, e, [&] { return it->second(*this, e); });
  return eval_unknown(e);
}

// An unknown NAME, NAME<...> or NAME{} is a type for the kernel layer (half_t, SM75_U32x4_LDSM_N,
// SM80_CP_ASYNC_CACHEALWAYS<uint128_t>), unless it is a near miss of a known name; an unknown
// f(...) is an error.
CppValue CppEvaluator::eval_unknown(const CppExpr& e) {
  for (std::size_t i = visible_; i < program_.bindings.size(); ++i)
    if (program_.bindings[i].name == e.name && !e.has_targs)
      fail(e, "'" + e.name + "' is used before its definition");
  const bool type_form = e.kind == CppExpr::Kind::name || (e.brace && e.args.empty());
  if (!type_form) {
    const auto& kernel = kernel_layer_names();
    if (std::find(kernel.begin(), kernel.end(), e.name) != kernel.end())
      fail(e, "'" + e.name + "' is a CuTe function outside the layout algebra; it is not evaluated here");
    const std::optional<std::string> near = nearest(e.name, known_names());
    fail(e, "unknown function '" + e.name + "'" + (near ? " (did you mean " + *near + "?)" : ""));
  }
  if (!type_bits(e.name) && !ends_with(e.name, "_t"))
    if (const std::optional<std::string> near = nearest(e.name, known_names()))
      fail(e, "unknown name '" + e.name + "' (did you mean " + *near + "?)");
  // Template arguments that are types or integers are written as evaluated (so `using T = half_t;`
  // Op<T> is Op<half_t>), any other as written.
  std::string name = e.name;
  if (e.has_targs) {
    name += '<';
    for (std::size_t i = 0; i < e.targs.size(); ++i) {
      const CppValue v = eval(e.targs[i]);
      if (v.kind == CppValue::Kind::type) name += (i ? "," : "") + v.type_name;
      else if (v.kind == CppValue::Kind::integer) name += (i ? "," : "") + std::to_string(v.integer);
      else name += (i ? "," : "") + render(e.targs[i]);
    }
    name += '>';
  }
  return CppValue::of_type(name);
}

std::vector<std::string> CppEvaluator::known_names() const {
  std::vector<std::string> out;
  for (const auto& [name, handler] : CppBuiltins::table()) out.push_back(name);
  for (const CutlassAtom& a : cutlass_atoms())
    if (a.name.find("::") != std::string::npos) out.push_back(a.name);
  for (std::size_t i = 0; i < std::min(visible_, program_.bindings.size()); ++i) out.push_back(program_.bindings[i].name);
  for (const auto& [name, p] : constants_) out.push_back(name);
  for (const std::string& n : kernel_layer_names()) out.push_back(n);
  return out;
}

IntTuple CppEvaluator::static_mask(const CppExpr& e, int depth) const {
  if (depth > 2 * kMaxCppDepth) return IntTuple(1);
  switch (e.kind) {
    case CppExpr::Kind::integer: return IntTuple(0);  // a literal is a run-time int in C++
    case CppExpr::Kind::negate: return static_mask(e.args[0], depth + 1);
    case CppExpr::Kind::binary: {
      const IntTuple a = static_mask(e.args[0], depth + 1), b = static_mask(e.args[1], depth + 1);
      return IntTuple(a.is_leaf() && b.is_leaf() ? std::min(a.value(), b.value()) : 1);
    }
    case CppExpr::Kind::name:
    case CppExpr::Kind::call: break;
  }
  if (e.has_targs) return IntTuple(1);  // Int<8>, Step<...>, Shape<...>: types are static
  if (e.kind == CppExpr::Kind::call && !e.brace) {
    static const std::vector<std::string> tuple_makers = {"make_shape", "make_stride", "make_step", "make_coord",
                                                          "make_tuple", "make_tile"};
    if (e.name == "decltype") return static_mask(e.args.at(0), depth + 1);
    if (std::find(tuple_makers.begin(), tuple_makers.end(), e.name) == tuple_makers.end()) return IntTuple(1);
    std::vector<IntTuple> items;
    for (const CppExpr& a : e.args) items.push_back(static_mask(a, depth + 1));
    return IntTuple::tuple(std::move(items));
  }
  if (e.kind == CppExpr::Kind::call && !e.args.empty()) return IntTuple(1);
  if (const std::optional<std::size_t> b = find_binding(e.name)) return static_mask(program_.bindings[*b].value, depth + 1);
  if (auto it = constants_.find(e.name); it != constants_.end()) return static_mask(*it->second.result, depth + 1);
  return IntTuple(1);
}

CppValue CppEvaluator::eval_result() {
  // Evaluate the bindings in order first, so a chain of bindings is a chain of cached values (no
  // deep recursion); a binding that fails is reported only where it is used.
  for (std::size_t i = 0; i < program_.bindings.size(); ++i) {
    try {
      eval_binding(i);
    } catch (const std::exception&) {
    }
  }
  Restore<std::size_t> scope(visible_, program_.bindings.size());
  if (program_.result) return eval(*program_.result);
  if (!program_.bindings.empty()) return eval_binding(program_.bindings.size() - 1);
  throw CppSourceError("expected a C++ expression (a layout, or using X = ...;)", 0, program_.source);
}

i64 CppEvaluator::eval_int(const CppExpr& e) {
  const CppValue v = eval(e);
  if (v.kind != CppValue::Kind::integer) fail(e, "expected an integer, got " + v.describe());
  return v.integer;
}

IntTuple CppEvaluator::eval_tuple(const CppExpr& e) {
  const CppValue v = eval(e);
  if (v.kind == CppValue::Kind::integer) return IntTuple(v.integer);
  if (v.kind != CppValue::Kind::tuple) fail(e, "expected an integer or a tuple, got " + v.describe());
  return v.tuple;
}

AnyLayout CppEvaluator::eval_layout(const CppExpr& e) {
  const CppValue v = eval(e);
  if (v.kind == CppValue::Kind::layout) return v.layout;
  if (v.kind == CppValue::Kind::integer || v.kind == CppValue::Kind::tuple) {
    const IntTuple shape = v.kind == CppValue::Kind::integer ? IntTuple(v.integer) : v.tuple;
    return located(*this, e, [&] { return AnyLayout(Layout(shape, compact_col_major(shape))); });
  }
  fail(e, "expected a layout, got " + v.describe());
}

}  // namespace layoutproof
