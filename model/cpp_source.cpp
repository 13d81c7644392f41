#include "model/cpp_source.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "model/notation.hpp"

namespace layoutproof {
namespace {

struct Token {
  enum class Kind { ident, number, punct, end } kind;
  std::string text;
  std::size_t column;  // 1-based
};

std::vector<Token> lex(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      std::string word(s.substr(start, i - start));
      if (word == "cute" && s.substr(i, 2) == "::") {  // drop the namespace
        i += 2;
        continue;
      }
      // `_8` is CuTe's static integer.
      if (word.size() > 1 && word[0] == '_' && std::all_of(word.begin() + 1, word.end(), ::isdigit))
        out.push_back({Token::Kind::number, word.substr(1), start + 1});
      else
        out.push_back({Token::Kind::ident, word, start + 1});
    } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '-' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      ++i;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
      out.push_back({Token::Kind::number, std::string(s.substr(start, i - start)), start + 1});
    } else {
      out.push_back({Token::Kind::punct, std::string(1, c), start + 1});
      ++i;
    }
  }
  out.push_back({Token::Kind::end, "", s.size() + 1});
  return out;
}

class CppParser {
 public:
  explicit CppParser(std::string_view text) : text_(text), toks_(lex(text)) {}

  AnyLayout parse() {
    AnyLayout l = layout_expr();
    if (peek().kind != Token::Kind::end) fail("end of input");
    return l;
  }

 private:
  const Token& peek() const { return toks_[pos_]; }
  bool is(const char* t) const { return peek().text == t && peek().kind != Token::Kind::end; }
  [[noreturn]] void fail(const std::string& expected) const {
    throw ParseError(expected, peek().column, std::string(text_));
  }
  void expect(const char* t) {
    if (!is(t)) fail(std::string("'") + t + "'");
    ++pos_;
  }
  bool accept(const char* t) {
    if (!is(t)) return false;
    ++pos_;
    return true;
  }
  void accept_braces() {
    if (accept("{")) expect("}");
  }

  // 8 | _8 | Int<8>{} | C<8>{} | Int<8>
  i64 integer() {
    if (peek().kind == Token::Kind::number) {
      const i64 v = std::stoll(toks_[pos_++].text);
      accept_braces();
      return v;
    }
    if (is("Int") || is("C")) {
      ++pos_;
      expect("<");
      const i64 v = integer();
      expect(">");
      accept_braces();
      return v;
    }
    fail("an integer (8, _8 or Int<8>{})");
  }

  // A value tuple: make_shape(...) / make_stride(...) / make_coord(...) / Shape<...>{} / integer.
  IntTuple tuple_value() {
    for (const char* f : {"make_shape", "make_stride", "make_tuple", "make_coord", "make_step"}) {
      if (accept(f)) {
        expect("(");
        std::vector<IntTuple> items{tuple_value()};
        while (accept(",")) items.push_back(tuple_value());
        expect(")");
        return IntTuple::tuple(std::move(items));
      }
    }
    if (is("Shape") || is("Stride") || is("tuple") || is("Step")) {
      IntTuple t = tuple_type();
      accept_braces();
      return t;
    }
    return IntTuple(integer());
  }

  // Shape<_8,Shape<_2,_4>> (a type)
  IntTuple tuple_type() {
    if (accept("Shape") || accept("Stride") || accept("tuple") || accept("Step")) {
      expect("<");
      std::vector<IntTuple> items{tuple_type()};
      while (accept(",")) items.push_back(tuple_type());
      expect(">");
      return IntTuple::tuple(std::move(items));
    }
    if (peek().kind == Token::Kind::number || is("Int") || is("C")) {
      const std::size_t save = pos_;
      if (peek().kind == Token::Kind::number) return IntTuple(std::stoll(toks_[pos_++].text));
      ++pos_;
      expect("<");
      const i64 v = integer();
      expect(">");
      (void)save;
      return IntTuple(v);
    }
    fail("a static shape type (Shape<...>, _8 or Int<8>)");
  }

  Swizzle swizzle() {
    expect("Swizzle");
    expect("<");
    Swizzle s;
    s.B = static_cast<int>(integer());
    expect(",");
    s.M = static_cast<int>(integer());
    expect(",");
    s.S = static_cast<int>(integer());
    expect(">");
    accept_braces();
    s.validate();
    return s;
  }

  // The stride argument of make_layout: a tuple, or a LayoutLeft{} / LayoutRight{} tag.
  IntTuple stride_for(const IntTuple& shape) {
    if (accept("LayoutLeft") || accept("GenColMajor")) {
      accept_braces();
      return compact_col_major(shape);
    }
    if (accept("LayoutRight") || accept("GenRowMajor")) {
      accept_braces();
      return compact_row_major(shape);
    }
    return tuple_value();
  }

  Layout plain_layout() {
    if (accept("make_layout")) {
      expect("(");
      const IntTuple shape = tuple_value();
      IntTuple stride = compact_col_major(shape);
      if (accept(",")) stride = stride_for(shape);
      expect(")");
      return Layout(shape, stride);
    }
    if (accept("Layout")) {
      expect("<");
      const IntTuple shape = tuple_type();
      IntTuple stride = compact_col_major(shape);
      if (accept(",")) stride = tuple_type();
      expect(">");
      accept_braces();
      return Layout(shape, stride);
    }
    fail("make_layout(...), Layout<...>{} or composition(...)");
  }

  AnyLayout layout_expr() {
    if (accept("composition") || accept("make_composed_layout")) {
      expect("(");
      const Swizzle sw = swizzle();
      expect(",");
      i64 offset = 0;
      if (peek().kind == Token::Kind::number || is("Int") || is("C")) {
        offset = integer();
        expect(",");
      }
      const Layout inner = plain_layout();
      expect(")");
      return AnyLayout(sw, offset, inner);
    }
    return AnyLayout(plain_layout());
  }

  std::string_view text_;
  std::vector<Token> toks_;
  std::size_t pos_ = 0;
};

}  // namespace

IntTuple compact_row_major(const IntTuple& shape) {
  // Walk the leaves from the last to the first, the way LayoutRight orders strides.
  std::vector<i64> s = leaves(shape), d(s.size());
  i64 cur = 1;
  for (std::size_t k = s.size(); k-- > 0;) {
    d[k] = s[k] == 1 ? 0 : cur;
    if (s[k] != 1) cur = checked_mul(cur, s[k]);
  }
  std::size_t k = 0;
  return transform_leaves(shape, [&](i64) { return d[k++]; });
}

bool looks_like_cpp_source(std::string_view text) {
  for (const char* w : {"make_layout", "Layout<", "composition(", "make_composed_layout", "Swizzle<"}) {
    if (text.find(w) != std::string_view::npos && !(std::string_view(w) == "Swizzle<" && text.find(" o ") != std::string_view::npos))
      return true;
  }
  return false;
}

AnyLayout parse_cpp_layout(std::string_view text) { return CppParser(text).parse(); }

AnyLayout parse_layout_any_syntax(std::string_view text) {
  return looks_like_cpp_source(text) ? parse_cpp_layout(text) : parse_any_layout(text);
}

}  // namespace layoutproof
