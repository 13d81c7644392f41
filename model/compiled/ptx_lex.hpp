#pragma once
// The PTX lexer: tokens with their line and column, for the reader (ptx_parse.hpp). It streams
// (no token list is kept), so reading a 50 MB file holds the text and one token.
//
// Tokens. A name is [A-Za-z_$%.][A-Za-z0-9_$.]* with `::` allowed inside (`ld.shared::cta.u32`,
// `%tid.x`, `$L__BB0_3`, `.reg`): opcodes keep their modifiers, directives their dot. A number is
// [0-9][0-9A-Za-z_.]* (`0x1F`, `0f3F800000`, `9.0`, `42U`), read by the parser. A string is "...".
// Everything else is one character (`, ; : { } [ ] ( ) @ ! + - < > = |`). `//` and `/* */`
// comments are white space.
//
// Errors: fail(pos, what) throws ParseError "FILE:LINE:COL: what" whose caret marks the column on
// that line (exit 2 in the CLI).
#include <cstddef>
#include <string>
#include <string_view>

#include "model/support/checked.hpp"

namespace layoutproof::compiled {

struct Token {
  enum class Kind { end, name, number, string, punct };
  Kind kind = Kind::end;
  std::string_view text;
  std::size_t pos = 0;  // byte offset in the whole text
  std::uint32_t line = 0;
  bool is(char c) const { return kind == Kind::punct && text.size() == 1 && text[0] == c; }
  bool is_name(std::string_view s) const { return kind == Kind::name && text == s; }
};

class Lexer {
 public:
  // Lexes text[begin, end) of the whole `text`; `line` is the line `begin` is on and `line_start`
  // the byte offset where that line starts (both for messages).
  Lexer(std::string_view text, std::string file, std::size_t begin, std::size_t end, std::uint32_t line,
        std::size_t line_start);

  Token next();
  const Token& peek();
  // The rest of the current line, unlexed (for `.loc`, whose operands end at the newline, and the
  // cuobjdump banner lines between modules).
  void skip_line();
  std::size_t pos() const { return peeked_ ? tok_.pos : pos_; }
  std::uint32_t line() const { return line_; }
  std::size_t line_start() const { return line_start_; }
  const std::string& file() const { return file_; }

  [[noreturn]] void fail(std::size_t pos, const std::string& what) const;
  [[noreturn]] void fail(const Token& t, const std::string& what) const { fail(t.pos, what); }

 private:
  void skip_space();
  Token lex();

  std::string_view text_;
  std::string file_;
  std::size_t pos_, end_;
  std::uint32_t line_;
  std::size_t line_start_;
  bool peeked_ = false;
  Token tok_;
};

// An integer literal as PTX writes it: decimal, 0x hex, 0b binary, 0 octal, an optional U suffix;
// 0fXXXXXXXX and 0dXXXXXXXXXXXXXXXX are the bits of a float/double. Returns false for anything
// else (the caller reports it); a value past 64 bits is false too.
bool ptx_integer(std::string_view text, std::uint64_t& out);

}  // namespace layoutproof::compiled
