// The C++ front end's lexer and parser (grammar: model/source/cpp_expr.hpp).
#include "model/source/cpp_parse.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace layoutproof::cpp_detail {

namespace {

std::string format_error(const std::string& message, std::size_t offset, const std::string& source, const std::string& label) {
  std::string out = label.empty() ? message : label + ": " + message;
  if (source.find('\n') == std::string::npos)
    return out + " at column " + std::to_string(offset + 1) + " of '" + source + "'";
  const std::size_t at = std::min(offset, source.size());
  const std::size_t line = 1 + std::count(source.begin(), source.begin() + at, '\n');
  const std::size_t nl = at == 0 ? std::string::npos : source.rfind('\n', at - 1);
  const std::size_t col = nl == std::string::npos ? at + 1 : at - nl;
  return out + " at line " + std::to_string(line) + ", column " + std::to_string(col);
}

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

CppSourceError::CppSourceError(const std::string& message, std::size_t offset, const std::string& source, const std::string& label)
    : ParseError(message, offset + 1, source), text_(format_error(message, offset, source, label)) {}

namespace {

// ---------------------------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------------------------

struct Tok {
  enum class Kind { ident, number, punct, string, end };
  Kind kind = Kind::end;
  std::string text;   // ident; punct ("::", "==", ... or one character); string: the contents
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
      else if (c == '"') out.push_back(string());
      else out.push_back(punct());
    }
    out.push_back({Tok::Kind::end, "", 0, s_.size()});
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& message, std::size_t at) const {
    throw CppSourceError(message, at, std::string(s_), label_);
  }

  // Skips white space, // and /* */ comments and preprocessor lines (#include ...); false at the end.
  bool skip_space_and_comments() {
    while (i_ < s_.size()) {
      if (std::isspace(static_cast<unsigned char>(s_[i_]))) {
        ++i_;
      } else if (s_.substr(i_, 2) == "//" || (s_[i_] == '#' && at_line_start())) {
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

  bool at_line_start() const {
    for (std::size_t k = i_; k-- > 0;) {
      if (s_[k] == '\n') return true;
      if (!std::isspace(static_cast<unsigned char>(s_[k]))) return false;
    }
    return true;
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

  // "..." (the message of a static_assert); escapes are kept as written.
  Tok string() {
    const std::size_t start = i_++;
    std::string text;
    while (i_ < s_.size() && s_[i_] != '"' && s_[i_] != '\n') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) text += s_[i_++];
      text += s_[i_++];
    }
    if (i_ >= s_.size() || s_[i_] != '"') fail("unterminated string literal", start);
    ++i_;
    return {Tok::Kind::string, text, 0, start};
  }

  Tok punct() {
    const std::size_t start = i_;
    for (const char* two : {"::", "==", "!=", "<=", ">=", "&&", "||", "->"}) {
      if (s_.substr(i_, 2) == two) {
        i_ += 2;
        return {Tok::Kind::punct, two, 0, start};
      }
    }
    const char c = s_[i_];
    if (std::string_view("(){}<>,;=+-*/%&|!?:[].~^").find(c) == std::string_view::npos) {
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

// What the front end evaluates, for the errors about what it does not.
constexpr const char* kSupported =
    "layoutproof evaluates declarations (using X = ...; typedef ... X; [constexpr] auto x = ...;), "
    "static_assert(...) and one final expression";

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
      if (statement(p)) continue;
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

  // Inside Name<...> a '>' closes the list; inside (...) / {...} it is greater-than again.
  struct InTargs {
    InTargs(Parser& p, bool v) : p_(p), old_(std::exchange(p.in_targs_, v)) {}
    ~InTargs() { p_.in_targs_ = old_; }
    Parser& p_;
    bool old_;
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
  [[noreturn]] void unsupported(const std::string& construct, const std::string& instead = kSupported) const {
    fail_msg("unsupported construct: " + construct + "; " + instead);
  }
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

  // using / typedef / return / static_assert statements (true when one was read), and clear errors
  // for the statements C++ has that the front end does not evaluate.
  bool statement(CppProgram& p) {
    if (is_word("using")) return using_statement(p), true;
    if (is_word("typedef")) return typedef_statement(p), true;
    if (is_word("static_assert") || is_word("CUTE_STATIC_ASSERT") || is_word("CUTE_STATIC_ASSERT_V"))
      return assertion(p), true;
    if (is_word("return")) {
      ++pos_;
      p.result = expr().e;
      expect_statement_end();
      while (accept(";")) {
      }
      if (!at_end()) fail("end of input after the return statement");
      return true;
    }
    for (const char* w : {"if", "for", "while", "do", "switch", "goto", "try", "throw"})
      if (is_word(w)) unsupported(std::string("'") + w + "' statements");
    for (const char* w : {"struct", "class", "union", "enum", "namespace"})
      if (is_word(w)) unsupported(std::string("'") + w + "' definitions");
    if (is_word("template") && is("<", 1)) unsupported("template definitions", "write the template's arguments as constants (-D NAME=EXPR) and paste its body");
    if (is_word("Tensor") || is_word("make_tensor")) unsupported("tensors", "paste the tensor's layout (the second argument of make_tensor)");
    return false;
  }

  // using NAME = expr;   (using namespace X; and using X::Y; are skipped)
  void using_statement(CppProgram& p) {
    ++pos_;
    if (is_word("namespace")) {
      ++pos_;
      qualified_name();
      expect_statement_end();
      return;
    }
    if (peek().kind != Tok::Kind::ident && !is("::")) fail("a name after 'using'");
    if (!is("=", 1)) {  // using cute::Int;
      qualified_name();
      expect_statement_end();
      return;
    }
    CppBinding b{peek().text, {}, peek().pos};
    ++pos_;
    expect("=");
    b.value = expr().e;
    expect_statement_end();
    add_binding(p, std::move(b));
  }

  // typedef TYPE NAME;
  void typedef_statement(CppProgram& p) {
    ++pos_;
    while (is_word("typename") || is_word("const")) ++pos_;
    CppExpr type = is_word("decltype") ? decltype_expr().e : name_expr().e;
    if (peek().kind != Tok::Kind::ident) fail("the new type's name after 'typedef TYPE'");
    CppBinding b{peek().text, std::move(type), peek().pos};
    ++pos_;
    expect_statement_end();
    add_binding(p, std::move(b));
  }

  // static_assert(COND[, "message"]);  CUTE_STATIC_ASSERT_V(COND[, "message"]);
  void assertion(CppProgram& p) {
    CppAssertion a;
    a.pos = peek().pos;
    ++pos_;
    expect("(");
    {
      InTargs not_targs(*this, false);
      a.condition = expr().e;
    }
    if (accept(",")) {
      if (peek().kind != Tok::Kind::string) fail("a string literal (the static_assert message)");
      a.message = peek().text;
      ++pos_;
    }
    expect(")");
    expect_statement_end();
    a.visible = p.bindings.size();
    p.assertions.push_back(std::move(a));
  }

  // [static] [constexpr] (auto | TYPE) [const] [&] NAME = expr;  nullopt (nothing consumed) when
  // the statement is not a declaration.
  std::optional<CppBinding> declaration() {
    const std::size_t save = pos_;
    bool qualified = false;
    while (is("[") && is("[", 1)) attribute();  // [[maybe_unused]]
    while (is_word("static") || is_word("constexpr") || is_word("const") || is_word("inline") || is_word("constinit")) {
      ++pos_;
      qualified = true;
    }
    const std::optional<CppExpr> type = declared_type();
    if (!type) {
      if (qualified) fail("a declaration: [constexpr] auto NAME = EXPR;");
      pos_ = save;
      return std::nullopt;
    }
    while (is_word("const") || is("&") || is("&&")) ++pos_;
    // TYPE NAME; and TYPE NAME{}; declare a value of the type (a CuTe atom, a layout type):
    //   Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_A;   is   auto s2r_atom_A = Copy_Atom<...>{};
    const bool is_type = type->kind == CppExpr::Kind::name;
    if (is_type && peek().kind == Tok::Kind::ident && (is(";", 1) || (is("{", 1) && is("}", 2)))) {
      CppBinding b{peek().text, *type, peek().pos};
      b.value.kind = CppExpr::Kind::call;
      b.value.brace = true;
      pos_ += is(";", 1) ? 1 : 3;
      expect_statement_end();
      return b;
    }
    if (peek().kind == Tok::Kind::ident && (is("=", 1) || is("{", 1))) {
      CppBinding b{peek().text, {}, peek().pos};
      ++pos_;
      if (accept("=")) {
        b.value = expr().e;
      } else {  // auto x{expr};
        ++pos_;
        InTargs not_targs(*this, false);
        b.value = expr().e;
        expect("}");
      }
      expect_statement_end();
      return b;
    }
    if (qualified) fail("a declaration: [constexpr] auto NAME = EXPR;");
    pos_ = save;
    return std::nullopt;
  }

  // [[...]]
  void attribute() {
    pos_ += 2;
    while (!at_end() && !(is("]") && is("]", 1))) ++pos_;
    if (at_end()) fail("']]'");
    pos_ += 2;
  }

  // `auto` (an integer node) or a type (a name with template arguments, no call); nullopt, with
  // the position undefined, when there is none.
  std::optional<CppExpr> declared_type() {
    if (is_word("auto")) {
      CppExpr a;
      a.pos = peek().pos;
      ++pos_;
      return a;
    }
    if (peek().kind != Tok::Kind::ident || is_word("decltype")) return std::nullopt;
    try {
      CppExpr t = primary().e;
      if (t.kind != CppExpr::Kind::name) return std::nullopt;
      return t;
    } catch (const ParseError&) {
      return std::nullopt;
    }
  }

  Node binary(const Tok& op, Node lhs, Node rhs) const {
    Node n;
    n.e.kind = CppExpr::Kind::binary;
    n.e.op = op.text;
    n.e.pos = op.pos;
    n.height = 1 + std::max(lhs.height, rhs.height);
    n.e.args.push_back(std::move(lhs.e));
    n.e.args.push_back(std::move(rhs.e));
    return checked(std::move(n));
  }

  // Left-associative binary levels, tightest last: || && (== !=) (< > <= >=) (+ -) (* / %).
  using Level = std::vector<const char*>;
  static const std::vector<Level>& levels() {
    static const std::vector<Level> l = {{"||"}, {"&&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"+", "-"}, {"*", "/", "%"}};
    return l;
  }
  bool at_operator(std::size_t level) const {
    for (const char* op : levels()[level]) {
      if (!is(op)) continue;
      // In Name<...>, '>' closes the list (as in C++: write (a > b) there).
      if (in_targs_ && (std::string_view(op) == ">" || std::string_view(op) == ">=")) return false;
      return true;
    }
    return false;
  }
  Node binary_level(std::size_t level) {
    if (level == levels().size()) return unary();
    Node lhs = binary_level(level + 1);
    while (at_operator(level)) {
      const Tok op = peek();
      ++pos_;
      lhs = binary(op, std::move(lhs), binary_level(level + 1));
    }
    return lhs;
  }

  // expr := or [ ? expr : expr ]
  Node expr() {
    Nest nest(*this);
    Node cond = binary_level(0);
    if (!is("?")) return cond;
    const Tok q = peek();
    ++pos_;
    Node yes;
    {
      InTargs not_targs(*this, false);
      yes = expr();
    }
    expect(":");
    Node no = expr();
    Node n;
    n.e.kind = CppExpr::Kind::conditional;
    n.e.pos = q.pos;
    n.height = 1 + std::max({cond.height, yes.height, no.height});
    n.e.args.push_back(std::move(cond.e));
    n.e.args.push_back(std::move(yes.e));
    n.e.args.push_back(std::move(no.e));
    return checked(std::move(n));
  }

  // unary := - unary | + unary | ! unary | primary
  Node unary() {
    if (is("-") || is("+") || is("!")) {
      const Tok op = peek();
      ++pos_;
      Nest nest(*this);  // - - - ... recurses without expr()
      Node operand = unary();
      if (op.text == "+") return operand;
      Node n;
      n.e.kind = op.text == "-" ? CppExpr::Kind::negate : CppExpr::Kind::logical_not;
      n.e.pos = op.pos;
      n.height = operand.height + 1;
      n.e.args.push_back(std::move(operand.e));
      return checked(std::move(n));
    }
    Node n = primary();
    postfix();
    return n;
  }

  // What may follow an operand in C++ but is not evaluated here.
  void postfix() {
    if (is(".") || is("->"))
      unsupported("member access ('" + peek().text + "')",
                  "write CuTe's free functions instead (size(x), shape<0>(x), get<1>(x), layout<0>(x), ...)");
    if (is("[")) unsupported("subscripts and lambdas ('[')", "index with get<I>(x) or evaluate L(i) with `layoutproof eval`");
    if (is("~") || is("^") || is("|") || is("&"))
      unsupported("the operator '" + peek().text + "'", "the supported operators are + - * / % == != < > <= >= && || ! ?:");
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
      InTargs not_targs(*this, false);
      Node inner = expr();
      expect(")");
      return inner;
    }
    while (is_word("typename") || is_word("template")) ++pos_;
    if (is_word("decltype")) return decltype_expr();
    if (is("[")) unsupported("lambdas and attributes ('[')", "paste the expression a lambda returns");
    if (t.kind == Tok::Kind::string) unsupported("string literals", "only a static_assert message may be a string");
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
    Node inner;
    {
      InTargs not_targs(*this, false);
      inner = expr();
    }
    expect(")");
    if (is("{") && is("}", 1)) pos_ += 2;
    n.height = inner.height + 1;
    n.e.args.push_back(std::move(inner.e));
    return checked(std::move(n));
  }

  // NAME [<targs>] [::type | ::value] [{args} | (args)]
  Node name_expr() {
    Node n;
    n.e.kind = CppExpr::Kind::name;
    n.e.pos = peek().pos;
    n.e.name = qualified_name();
    int height = 0;
    if (accept("<")) {
      n.e.has_targs = true;
      n.e.targs = list(">", height);
      if (is("::") && (is_word("type", 1) || is_word("value", 1))) {
        pos_ += 2;  // conditional<...>::type, sizeof_bits<T>::value: the same as the alias
      } else if (is("::")) {
        ++pos_;
        unsupported("a member of a template ('" + n.e.name + "<...>::" + peek().text + "')",
                    "only ::type and ::value are understood; give the member as a constant (-D NAME=EXPR)");
      }
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
    InTargs targs(*this, std::string_view(close) == ">");
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
  bool in_targs_ = false;
};

}  // namespace

CppProgram parse_program(std::string_view text, const std::string& label) { return Parser(text, label).program(); }

std::string render(const CppExpr& e) {
  const auto list = [](const std::vector<CppExpr>& xs) {
    std::string out;
    for (std::size_t i = 0; i < xs.size(); ++i) out += (i ? "," : "") + render(xs[i]);
    return out;
  };
  switch (e.kind) {
    case CppExpr::Kind::integer: return std::to_string(e.value);
    case CppExpr::Kind::negate: return "-" + render(e.args[0]);
    case CppExpr::Kind::logical_not: return "!" + render(e.args[0]);
    case CppExpr::Kind::binary: return render(e.args[0]) + e.op + render(e.args[1]);
    case CppExpr::Kind::conditional: return render(e.args[0]) + "?" + render(e.args[1]) + ":" + render(e.args[2]);
    case CppExpr::Kind::name:
    case CppExpr::Kind::call: break;
  }
  std::string out = e.name;
  if (e.has_targs) out += "<" + list(e.targs) + ">";
  if (e.kind == CppExpr::Kind::call) out += e.brace ? "{" + list(e.args) + "}" : "(" + list(e.args) + ")";
  return out;
}

std::string head(const CppExpr& e) {
  switch (e.kind) {
    case CppExpr::Kind::integer: return std::to_string(e.value);
    case CppExpr::Kind::binary: return "operator" + e.op;
    case CppExpr::Kind::negate: return "unary -";
    case CppExpr::Kind::logical_not: return "operator!";
    case CppExpr::Kind::conditional: return "operator?:";
    default: return e.name + (e.has_targs ? "<...>" : "");
  }
}

}  // namespace layoutproof::cpp_detail
