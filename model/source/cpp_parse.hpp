#pragma once
// Internals of the C++ front end (model/source/cpp_expr.hpp) shared by its parser, evaluator and built-ins:
// the located error, the parser entry point with a label for -D constants, and name suggestions.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/atoms/name_suggest.hpp"
#include "model/source/cpp_expr.hpp"

namespace layoutproof::cpp_detail {

// A ParseError whose message is the front end's own ("unknown function 'f'") rather than
// "expected ...", located by byte offset: "at column C of '...'" for one line, "at line L, column C"
// for multi-line source (column stays offset + 1 so ParseError::caret() finds the line).
// `label` names where the text came from ("-D bM").
class CppSourceError : public ParseError {
 public:
  CppSourceError(const std::string& message, std::size_t offset, const std::string& source, const std::string& label = "");
  const char* what() const noexcept override { return text_.c_str(); }

 private:
  std::string text_;
};

// An overflow that already says where it happened (so outer nodes do not add their location too).
struct LocatedOverflow : OverflowError {
  using OverflowError::OverflowError;
};

// parse_cpp_program, with errors labelled (label "" for the program itself).
CppProgram parse_program(std::string_view text, const std::string& label);

// "Did you mean" for every lookup: model/atoms/name_suggest.hpp.
using layoutproof::nearest;
using layoutproof::name_hint;

// The expression as written, without white space (prefixes dropped): a type name for the kernel layer.
std::string render(const CppExpr& e);

// "f", "f<...>", "operator+" for messages.
std::string head(const CppExpr& e);

}  // namespace layoutproof::cpp_detail
