#include "model/compiled/ptx_lex.hpp"

#include <algorithm>
#include <cctype>

#include "model/layout/notation.hpp"  // ParseError

namespace layoutproof::compiled {
namespace {

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.'; }
// A byte that is not printable, as C writes it: 0x7f -> "\x7f".
std::string hex_byte(char c) {
  static const char* digits = "0123456789abcdef";
  const unsigned char u = static_cast<unsigned char>(c);
  return std::string("\\x") + digits[u >> 4] + digits[u & 15];
}

}  // namespace

Lexer::Lexer(std::string_view text, std::string file, std::size_t begin, std::size_t end, std::uint32_t line,
             std::size_t line_start)
    : text_(text), file_(std::move(file)), pos_(begin), end_(end), line_(line), line_start_(line_start) {}

void Lexer::fail(std::size_t pos, const std::string& what) const {
  // The line holding `pos` (errors are raised at or before the current line).
  pos = std::min(pos, text_.size());
  std::uint32_t line = line_;
  std::size_t start = line_start_;
  if (pos < line_start_) {
    for (std::size_t k = pos; k < line_start_; ++k)
      if (text_[k] == '\n') --line;
    const std::size_t nl = pos == 0 ? std::string_view::npos : text_.rfind('\n', pos - 1);
    start = nl == std::string_view::npos ? 0 : nl + 1;
  }
  const std::size_t eol = text_.find('\n', start);
  std::string shown(text_.substr(start, (eol == std::string_view::npos ? text_.size() : eol) - start));
  for (char& c : shown)
    if (c == '\t' || c == '\r') c = ' ';
  if (shown.size() > 200) shown = shown.substr(0, 200);
  const std::size_t col = pos >= start ? pos - start + 1 : 1;
  throw ParseError::located(file_ + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + what,
                            std::min(col, shown.size() + 1), shown);
}

void Lexer::skip_space() {
  while (pos_ < end_) {
    const char c = text_[pos_];
    if (c == '\n') {
      ++line_;
      line_start_ = ++pos_;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < end_ && text_[pos_ + 1] == '/') {
      while (pos_ < end_ && text_[pos_] != '\n') ++pos_;
    } else if (c == '/' && pos_ + 1 < end_ && text_[pos_ + 1] == '*') {
      const std::size_t open = pos_;
      const std::size_t close = text_.find("*/", pos_ + 2);
      if (close == std::string_view::npos || close + 2 > end_) fail(open, "a comment that is never closed (*/)");
      for (std::size_t k = pos_; k < close; ++k)
        if (text_[k] == '\n') ++line_, line_start_ = k + 1;
      pos_ = close + 2;
    } else {
      break;
    }
  }
}

Token Lexer::lex() {
  skip_space();
  Token t;
  t.pos = pos_;
  t.line = line_;
  if (pos_ >= end_) return t;
  const char c = text_[pos_];
  const std::size_t b = pos_;
  if (name_start(c)) {
    ++pos_;
    while (pos_ < end_) {
      if (name_char(text_[pos_])) ++pos_;
      else if (text_[pos_] == ':' && pos_ + 1 < end_ && text_[pos_ + 1] == ':' && pos_ + 2 < end_ && name_char(text_[pos_ + 2]))
        pos_ += 2;
      else break;
    }
    t.kind = Token::Kind::name;
  } else if (std::isdigit(static_cast<unsigned char>(c))) {
    while (pos_ < end_ && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' || text_[pos_] == '.')) ++pos_;
    t.kind = Token::Kind::number;
  } else if (c == '"') {
    ++pos_;
    while (pos_ < end_ && text_[pos_] != '"' && text_[pos_] != '\n') ++pos_;
    if (pos_ >= end_ || text_[pos_] != '"') fail(b, "a string that is never closed (\")");
    ++pos_;
    t.kind = Token::Kind::string;
  } else if (std::string_view(",;:{}[]()@!+-<>=|").find(c) != std::string_view::npos) {
    ++pos_;
    t.kind = Token::Kind::punct;
  } else {
    fail(b, std::string("unexpected character '") + (std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : hex_byte(c)) + "'");
  }
  t.text = text_.substr(b, pos_ - b);
  return t;
}

Token Lexer::next() {
  if (peeked_) {
    peeked_ = false;
    return tok_;
  }
  return lex();
}

const Token& Lexer::peek() {
  if (!peeked_) {
    tok_ = lex();
    peeked_ = true;
  }
  return tok_;
}

void Lexer::skip_line() {
  if (peeked_) {  // the peeked token is on the line being skipped
    pos_ = tok_.pos;
    peeked_ = false;
  }
  while (pos_ < end_ && text_[pos_] != '\n') ++pos_;
}

bool ptx_integer(std::string_view s, std::uint64_t& out) {
  if (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.remove_suffix(1);
  if (s.empty()) return false;
  int base = 10;
  std::size_t i = 0;
  std::size_t max_digits = 64;
  if (s.size() > 1 && s[0] == '0') {
    const char k = s[1];
    if (k == 'x' || k == 'X') base = 16, i = 2;
    else if (k == 'b' || k == 'B') base = 2, i = 2;
    else if (k == 'f' || k == 'F') base = 16, i = 2, max_digits = 8;
    else if (k == 'd' || k == 'D') base = 16, i = 2, max_digits = 16;
    else base = 8, i = 1;
    if (i == s.size()) return false;
    if ((k == 'f' || k == 'F') && s.size() != 10) return false;
    if ((k == 'd' || k == 'D') && s.size() != 18) return false;
  }
  (void)max_digits;
  std::uint64_t v = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return false;
    if (d >= base) return false;
    if (v > (~std::uint64_t{0} - static_cast<std::uint64_t>(d)) / static_cast<std::uint64_t>(base)) return false;
    v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
  }
  out = v;
  return true;
}

}  // namespace layoutproof::compiled
