#include "model/notation.hpp"

#include <algorithm>
#include <cctype>

namespace layoutproof {

ParseError::ParseError(const std::string& expected, std::size_t col, std::string in)
    : LayoutError("expected " + expected + " at column " + std::to_string(col) + " of '" + in + "'"),
      column(col),
      input(std::move(in)) {}

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

std::string to_string(const IntTuple& t) {
  if (t.is_leaf()) return std::to_string(t.value());
  std::string s = "(";
  for (std::size_t i = 0; i < t.rank(); ++i) {
    if (i) s += ',';
    s += to_string(t[i]);
  }
  return s + ")";
}

std::string to_string(const Layout& l) { return to_string(l.shape) + ":" + to_string(l.stride); }

std::string to_string(const Swizzle& s) {
  return "Sw<" + std::to_string(s.B) + "," + std::to_string(s.M) + "," + std::to_string(s.S) + ">";
}

std::string to_string(const AnyLayout& l) {
  if (!l.swizzle) return to_string(l.layout);
  return to_string(*l.swizzle) + " o " + std::to_string(l.offset) + " o " + to_string(l.layout);
}

namespace {

// A recursive-descent parser over one input string; every error carries the column.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  [[noreturn]] void fail(const std::string& expected) const {
    throw ParseError(expected, pos_ + 1, std::string(text_));
  }
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

  i64 integer() {
    skip_space();
    if (peek('_')) ++pos_;
    bool negative = false;
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) negative = text_[pos_++] == '-';
    if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_]))) fail("an integer");
    const std::size_t start = pos_;
    i64 v = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      const int digit = text_[pos_] - '0';
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, digit, &v)) {
        pos_ = start;
        throw OverflowError("integer at column " + std::to_string(start + 1) + " does not fit in 64 bits");
      }
      ++pos_;
    }
    return negative ? -v : v;
  }

  IntTuple int_tuple() {
    if (!peek('(')) {
      if (!at_int()) fail("an integer or '('");
      return IntTuple(integer());
    }
    ++pos_;
    std::vector<IntTuple> children{int_tuple()};
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
    if (!peek(':')) return Layout(shape, compact_col_major(shape));
    ++pos_;
    const std::size_t stride_at = pos_;
    IntTuple stride = int_tuple();
    if (!congruent(shape, stride)) {
      pos_ = stride_at;
      fail("a stride congruent to the shape " + to_string(shape));
    }
    try {
      return Layout(shape, stride);
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
    // Either `OFFSET o LAYOUT` or `LAYOUT` directly: an integer followed by 'o' is the offset.
    const std::size_t save = pos_;
    if (at_int()) {
      const i64 offset = integer();
      if (peek('o')) {
        ++pos_;
        return AnyLayout(sw, offset, layout());
      }
      pos_ = save;
    }
    return AnyLayout(sw, 0, layout());
  }

  Tiler tiler() {
    if (peek('[')) {
      ++pos_;
      std::vector<Tiler> modes{tiler_element()};
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

  int small_int() {
    const std::size_t start = pos_;
    const i64 v = integer();
    if (v < -64 || v > 64) {
      pos_ = start;
      fail("a swizzle parameter between -64 and 64");
    }
    return static_cast<int>(v);
  }

  // Inside a tiler: [...], _, an integer (n:1), a layout, or a shape tuple (by-mode integers).
  Tiler tiler_element() {
    if (peek('[')) return tiler();
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '_' && !at_int()) {
      ++pos_;
      return Tiler::underscore();
    }
    if (!peek('(') && !at_int()) fail("a tiler: '[', '_', an integer or a layout");
    const std::size_t start = pos_;
    const IntTuple shape = int_tuple();
    if (peek(':')) {
      pos_ = start;
      return Tiler::of(layout());
    }
    return from_shape(shape);
  }

  static Tiler from_shape(const IntTuple& t) {
    if (t.is_leaf()) return Tiler::of_int(t.value());
    std::vector<Tiler> modes;
    for (const auto& c : t.children()) modes.push_back(from_shape(c));
    return Tiler::by_mode(std::move(modes));
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

template <class F>
auto parse_whole(std::string_view text, F&& f) {
  Parser p(text);
  auto result = f(p);
  p.expect_end();
  return result;
}

}  // namespace

IntTuple parse_int_tuple(std::string_view text) {
  return parse_whole(text, [](Parser& p) { return p.int_tuple(); });
}

Layout parse_layout(std::string_view text) {
  return parse_whole(text, [](Parser& p) { return p.layout(); });
}

AnyLayout parse_any_layout(std::string_view text) {
  return parse_whole(text, [](Parser& p) { return p.any_layout(); });
}

Swizzle parse_swizzle(std::string_view text) {
  return parse_whole(text, [](Parser& p) { return p.swizzle(); });
}

Tiler parse_tiler(std::string_view text) {
  return parse_whole(text, [](Parser& p) { return p.tiler(); });
}

}  // namespace layoutproof
