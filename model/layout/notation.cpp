#include "model/layout/notation.hpp"

#include <algorithm>
#include <cctype>

#include "model/layout/cute_int.hpp"

namespace layoutproof {

ParseError::ParseError(const std::string& expected, std::size_t col, std::string in)
    : LayoutError("expected " + expected + " at column " + std::to_string(col) + " of '" + in + "'"),
      column(col),
      input(std::move(in)) {}

ParseError::ParseError(Plain, const std::string& message, std::size_t col, std::string in)
    : LayoutError(message + " at column " + std::to_string(col) + " of '" + in + "'"), column(col), input(std::move(in)) {}

ParseError ParseError::located(const std::string& message, std::size_t col, std::string in) {
  return ParseError(Plain{}, message, col, std::move(in));
}

std::string ParseError::caret() const {
  if (input.find('\n') == std::string::npos) return "  " + input + "\n  " + std::string(column - 1, ' ') + "^";
  // Multi-line input (pasted C++, column = byte offset + 1): the offending line only. An error at the
  // end of the text points just after its last character, not at an empty last line.
  std::size_t at = std::min(column == 0 ? 0 : column - 1, input.size());
  if (at == input.size()) {
    const std::size_t last = input.find_last_not_of(" \t\r\n");
    at = last == std::string::npos ? 0 : last + 1;
  }
  const std::size_t nl = at == 0 ? std::string::npos : input.rfind('\n', at - 1);
  const std::size_t begin = nl == std::string::npos ? 0 : nl + 1;
  const std::size_t end = std::min(input.find('\n', at), input.size());
  std::string pad;
  for (std::size_t k = begin; k < at; ++k) pad += input[k] == '\t' ? '\t' : ' ';  // tabs keep the caret aligned
  return "  " + input.substr(begin, end - begin) + "\n  " + pad + "^";
}

namespace {

std::string leaf_string(const IntTuple& t, bool cute) {
  std::string s = (cute && t.is_static() ? "_" : "") + std::to_string(t.scale());
  // CuTe prints ScaledBasis<T,N0,N1,...> as value@...@N1@N0: the innermost mode first.
  const std::vector<int>& path = t.basis_path();
  for (std::size_t k = path.size(); k-- > 0;) s += "@" + std::to_string(path[k]);
  return s;
}

std::string tuple_string(const IntTuple& t, bool cute) {
  if (t.is_leaf()) return leaf_string(t, cute);
  std::string s = "(";
  for (std::size_t i = 0; i < t.rank(); ++i) {
    if (i) s += ',';
    s += tuple_string(t[i], cute);
  }
  return s + ")";
}

// Sw<B,M,S> o OFFSET o LAYOUT, the offset being CuTe's smem_ptr flag where there is one.
std::string any_string(const AnyLayout& l, bool cute) {
  const auto inner = [&](const Layout& x) { return tuple_string(x.shape, cute) + ":" + tuple_string(x.stride, cute); };
  if (!l.swizzle) return inner(l.layout);
  if (l.is_smem_ptr())
    return to_string(l.byte_swizzle) + " o smem_ptr[" + std::to_string(l.smem_ptr_bits) + "b](unset) o " + inner(l.layout);
  const std::string off = (cute && l.offset_is_static ? "_" : "") + std::to_string(l.offset);
  return to_string(*l.swizzle) + " o " + off + " o " + inner(l.layout);
}

}  // namespace

std::string to_string(const IntTuple& t) { return tuple_string(t, false); }

std::string to_string(const Layout& l) { return to_string(l.shape) + ":" + to_string(l.stride); }

std::string to_string(const Swizzle& s) {
  return "Sw<" + std::to_string(s.B) + "," + std::to_string(s.M) + "," + std::to_string(s.S) + ">";
}

std::string to_string(const AnyLayout& l) { return any_string(l, false); }

std::string to_cute_string(const IntTuple& t) { return tuple_string(t, true); }

std::string to_cute_string(const Layout& l) { return to_cute_string(l.shape) + ":" + to_cute_string(l.stride); }

std::string to_cute_string(const Swizzle& s) { return to_string(s); }

std::string to_cute_string(const AnyLayout& l) { return any_string(l, true); }

std::string to_cute_string(const Tiler& t) {
  switch (t.kind) {
    case Tiler::Kind::layout: return to_cute_string(t.layout);
    case Tiler::Kind::integer: return (t.integer_static ? "_" : "") + std::to_string(t.integer);
    case Tiler::Kind::underscore: return "_";
    case Tiler::Kind::tuple: {
      std::string s = "(";
      for (std::size_t i = 0; i < t.modes.size(); ++i) s += (i ? "," : "") + to_cute_string(t.modes[i]);
      return s + ")";
    }
  }
  return "?";
}

bool has_static_marker(std::string_view text) {
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != '_') continue;
    std::size_t j = i + 1;
    if (text[j] == '-' || text[j] == '+') ++j;
    if (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) return true;
  }
  return false;
}

namespace {

// A recursive-descent parser over one input string; every error carries the column.
// `exact`: bare integers are dynamic (CuTe's printed text); otherwise every integer is static.
class Parser {
 public:
  Parser(std::string_view text, bool exact, bool allow_unevaluable = false)
      : text_(text), exact_(exact), allow_unevaluable_(allow_unevaluable) {}

  [[noreturn]] void fail(const std::string& expected) const {
    throw ParseError(expected, pos_ + 1, std::string(text_));
  }
  // One level of ( or [ while it is open: the recursion is bounded by kMaxNotationDepth
  // (40,000 '(' overflowed the stack: hostile-input campaign C1).
  struct Nesting {
    explicit Nesting(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxNotationDepth) {
        p_.skip_space();
        throw ParseError::located("nesting deeper than " + std::to_string(kMaxNotationDepth), p_.pos_ + 1, std::string(p_.text_));
      }
    }
    ~Nesting() { --p_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    Parser& p_;
  };
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool peek(char c) {
    skip_space();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  bool peek_word(std::string_view w) {
    skip_space();
    return text_.substr(pos_, w.size()) == w;
  }
  void expect(char c) {
    if (!peek(c)) fail(std::string("'") + c + "'");
    ++pos_;
  }
  void expect_end() {
    skip_space();
    if (pos_ != text_.size()) fail("end of input");
  }
  bool at_int() {
    skip_space();
    std::size_t p = pos_;
    if (p < text_.size() && text_[p] == '_') ++p;
    if (p < text_.size() && (text_[p] == '-' || text_[p] == '+')) ++p;
    return p < text_.size() && std::isdigit(static_cast<unsigned char>(text_[p]));
  }
  // E<1>, E<1,0>, E<0>{}: a unit basis stride.
  bool at_basis_e() {
    skip_space();
    return text_.substr(pos_, 2) == "E<";
  }

  i64 number() {
    skip_space();
    bool negative = false;
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) negative = text_[pos_++] == '-';
    if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_]))) fail("an integer");
    const std::size_t start = pos_;
    i64 v = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      const int digit = text_[pos_] - '0';
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, digit, &v))  // refused, never truncated
        throw ParseError::located("integer does not fit in 64 bits", start + 1, std::string(text_));
      ++pos_;
    }
    return negative ? -v : v;
  }

  // An integer leaf: `_8` static, `8` static or dynamic (exact_), optionally a basis `@i@j...`.
  IntTuple integer() {
    skip_space();
    if (at_basis_e()) return basis_e();
    bool is_static = !exact_;
    if (peek('_')) {
      ++pos_;
      is_static = true;
    }
    const i64 v = number();
    std::vector<int> path;
    while (pos_ < text_.size() && text_[pos_] == '@') {
      ++pos_;
      const std::size_t at = pos_;
      const i64 m = number();
      if (m < 0 || m > 64) {
        pos_ = at;
        fail("a basis mode index between 0 and 64");
      }
      path.push_back(static_cast<int>(m));
    }
    if (path.empty()) return IntTuple::integer(v, is_static);
    std::reverse(path.begin(), path.end());  // printed innermost mode first: _1@0@1 is E<1,0>
    return IntTuple::basis(v, is_static, std::move(path));
  }

  IntTuple basis_e() {
    pos_ += 2;  // E<
    std::vector<int> path{small_int()};
    while (peek(',')) {
      ++pos_;
      path.push_back(small_int());
    }
    expect('>');
    if (peek('{')) {
      ++pos_;
      expect('}');
    }
    for (int m : path)
      if (m < 0) fail("a non-negative basis mode index");
    return IntTuple::basis(1, true, std::move(path));
  }

  IntTuple int_tuple() {
    if (!peek('(')) {
      if (!at_int() && !at_basis_e()) fail("an integer or '('");
      return integer();
    }
    const Nesting level(*this);
    ++pos_;
    // push_back, not {int_tuple()}: an initializer list copies the subtree at every level (quadratic).
    std::vector<IntTuple> children;
    if (peek(')')) {  // () the empty tuple: the C++ make_shape() prints so (to_cute_string) and reads back
      ++pos_;
      return IntTuple::tuple(std::move(children));
    }
    children.push_back(int_tuple());
    while (peek(',')) {
      ++pos_;
      children.push_back(int_tuple());
    }
    expect(')');
    return IntTuple::tuple(std::move(children));
  }

  Layout layout() {
    const std::size_t start = pos_;
    IntTuple shape = int_tuple();
    return layout_after_shape(start, std::move(shape));
  }

  // The rest of a layout whose shape (starting at `start`) has been read.
  Layout layout_after_shape(std::size_t start, IntTuple shape) {
    for (const IntTuple& leaf : leaf_nodes(shape))
      if (leaf.is_basis()) {
        pos_ = start;
        fail("a shape of integers (basis elements like _1@0 are strides)");
      }
    const bool given = peek(':');
    IntTuple stride;
    if (given) {
      ++pos_;
      const std::size_t stride_at = pos_;
      stride = int_tuple();
      if (!congruent(shape, stride)) {
        pos_ = stride_at;
        fail("a stride congruent to the shape " + to_string(shape));
      }
    }
    try {  // a shape alone takes CuTe's compact column-major strides; its errors are located too (E4a)
      return given ? Layout(shape, stride) : Layout(shape, cute_int::compact_col_major(shape));
    } catch (const ParseError&) {
      throw;
    } catch (const OverflowError&) {
      throw;
    } catch (const LayoutError& e) {
      pos_ = start;
      fail(std::string("a valid layout (") + e.what() + ")");
    }
  }

  Swizzle swizzle() {
    skip_space();
    if (peek_word("Swizzle")) pos_ += 7;
    else if (peek_word("Sw")) pos_ += 2;
    else fail("'Sw<' or 'Swizzle<'");
    expect('<');
    Swizzle s;
    s.B = small_int();
    expect(',');
    s.M = small_int();
    expect(',');
    s.S = small_int();
    expect('>');
    s.validate();
    return s;
  }

  AnyLayout any_layout() {
    if (!peek_word("Sw")) return AnyLayout(layout());
    const Swizzle sw = swizzle();
    expect_compose();
    if (peek_word("smem_ptr[")) return smem_ptr_layout(sw);
    // Either `OFFSET o LAYOUT` or `LAYOUT` directly: an integer followed by 'o' is the offset.
    const std::size_t save = pos_;
    if (at_int()) {
      const IntTuple offset = integer();
      if (peek('o') && !offset.is_basis()) {
        ++pos_;
        AnyLayout r(sw, offset.value(), layout());
        r.offset_is_static = offset.is_static();
        return r;
      }
      pos_ = save;
    }
    return AnyLayout(sw, 0, layout());
  }

  Tiler tiler() {
    if (peek('[')) {
      const Nesting level(*this);
      ++pos_;
      std::vector<Tiler> modes;
      modes.push_back(tiler_element());
      while (peek(',')) {
        ++pos_;
        modes.push_back(tiler_element());
      }
      expect(']');
      return Tiler::by_mode(std::move(modes));
    }
    return tiler_element();
  }

 private:
  void expect_compose() {
    if (!peek('o')) fail("'o' (composition)");
    ++pos_;
  }

  // Sw<B,M,S> o smem_ptr[16b](unset) o LAYOUT (CuTe's smem_ptr_flag_bits<16>).
  AnyLayout smem_ptr_layout(const Swizzle& sw) {
    pos_ += 9;  // smem_ptr[
    const std::size_t bits_at = pos_;
    const i64 bits = number();
    if (!peek('b')) fail("'b' (smem_ptr[16b])");
    ++pos_;
    expect(']');
    expect('(');
    if (!peek_word("unset")) fail("'unset'");
    pos_ += 5;
    expect(')');
    expect_compose();
    const Layout l = layout();
    if (bits < 1 || bits > 1024) {
      pos_ = bits_at;
      fail("an element size in bits between 1 and 1024");
    }
    try {
      return AnyLayout::smem_ptr(sw, static_cast<int>(bits), l, allow_unevaluable_);
    } catch (const ParseError&) {
      throw;
    } catch (const LayoutError& e) {
      pos_ = bits_at;
      fail(std::string("an element size this swizzle can address (") + e.what() + ")");
    }
  }

  int small_int() {
    const std::size_t start = pos_;
    skip_space();
    if (peek('_')) ++pos_;  // Sw<_3,...> is not CuTe's, but harmless
    const i64 v = number();
    if (v < -64 || v > 64) {
      pos_ = start;
      fail("a swizzle parameter between -64 and 64");
    }
    return static_cast<int>(v);
  }

  bool at_underscore_alone() {
    skip_space();
    return pos_ < text_.size() && text_[pos_] == '_' && !at_int();
  }

  // Inside a tiler: [...], _, an integer (n:1), a layout, or a parenthesized by-mode tuple whose
  // elements are tilers: (_2:_1,_4:_2), (_8,_), ((_2,_2):(_1,_4),_4). A parenthesized tuple of
  // integers followed by ':' is a layout's shape.
  Tiler tiler_element() {
    if (peek('[')) return tiler();
    if (at_underscore_alone()) {
      ++pos_;
      return Tiler::underscore();
    }
    if (!peek('(') && !at_int()) fail("a tiler: '[', '(', '_', an integer or a layout");
    const std::size_t start = pos_;
    if (at_int()) {
      const IntTuple n = integer();
      if (peek(':')) {
        pos_ = start;
        return Tiler::of(layout());
      }
      if (n.is_basis()) {
        pos_ = start;
        fail("a tiler (a basis element is a stride)");
      }
      return Tiler::of_int(n.value(), n.is_static());
    }
    const Nesting level(*this);
    ++pos_;  // '('
    std::vector<Tiler> modes;
    modes.push_back(tiler_element());
    while (peek(',')) {
      ++pos_;
      modes.push_back(tiler_element());
    }
    expect(')');
    if (!peek(':')) return Tiler::by_mode(std::move(modes));
    // A layout: its shape must have been a tuple of integers.
    pos_ = start;
    return Tiler::of(layout());
  }

  std::string_view text_;
  bool exact_;
  bool allow_unevaluable_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

bool exact_reading(std::string_view text, Reading r) { return r == Reading::exact || has_static_marker(text); }

template <class F>
auto parse_whole(std::string_view text, Reading r, F&& f, bool allow_unevaluable = false) {
  Parser p(text, exact_reading(text, r), allow_unevaluable);
  auto result = f(p);
  p.expect_end();
  return result;
}

}  // namespace

IntTuple parse_int_tuple(std::string_view text, Reading r) {
  return parse_whole(text, r, [](Parser& p) { return p.int_tuple(); });
}

Layout parse_layout(std::string_view text, Reading r) {
  return parse_whole(text, r, [](Parser& p) { return p.layout(); });
}

AnyLayout parse_any_layout(std::string_view text, Reading r, bool allow_unevaluable) {
  return parse_whole(text, r, [](Parser& p) { return p.any_layout(); }, allow_unevaluable);
}

Swizzle parse_swizzle(std::string_view text) {
  return parse_whole(text, Reading::automatic, [](Parser& p) { return p.swizzle(); });
}

Tiler parse_tiler(std::string_view text, Reading r) {
  return parse_whole(text, r, [](Parser& p) { return p.tiler(); });
}

}  // namespace layoutproof
