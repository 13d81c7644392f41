#pragma once
// CuTe notation: parsing and canonical printing.
//
// Accepted (white space between tokens is ignored, static ints may carry CuTe's `_`):
//   int tuples   8   _8   (8,32)   ((2,3),4)   (4)          a 1-tuple stays a 1-tuple
//   layouts      8:4   (8,32):(32,1)   ((2,3),4):((1,2),6)   (4):(1)
//                a shape alone means its compact column-major layout: (2,3) = (2,3):(1,2)
//   swizzles     Sw<3,4,3>   Swizzle<3,4,3>
//   swizzled     Sw<3,4,3> o _0 o (8,64):(64,1)     the offset may be left out: Sw<3,3,3> o (8,64):(64,1)
//   tilers       [8:1,(2,2):(1,4)]   [4,_]   an integer n means n:1, _ keeps the mode
// Printing is canonical: no underscores, no spaces inside layouts, 1-tuples keep their
// parentheses, swizzled layouts print as `Sw<B,M,S> o OFFSET o LAYOUT`.
#include <string>
#include <string_view>

#include "model/composed.hpp"
#include "model/tiler.hpp"

namespace layoutproof {

// A malformed input: what was expected, at which column (1-based).
struct ParseError : LayoutError {
  ParseError(const std::string& expected, std::size_t column, std::string input);
  std::size_t column;
  std::string input;
  // Two lines: the input and a caret under the offending column.
  std::string caret() const;
};

std::string to_string(const IntTuple& t);
std::string to_string(const Layout& l);
std::string to_string(const Swizzle& s);
std::string to_string(const AnyLayout& l);

IntTuple parse_int_tuple(std::string_view text);
// A plain layout (a shape alone gets compact column-major strides).
Layout parse_layout(std::string_view text);
// A plain or swizzled layout. A bare swizzle `Sw<B,M,S>` is rejected here (see parse_swizzle).
AnyLayout parse_any_layout(std::string_view text);
Swizzle parse_swizzle(std::string_view text);
// A tiler: a bracketed by-mode tuple, a layout, an integer, `_`, or a shape tuple (by-mode ints).
Tiler parse_tiler(std::string_view text);

}  // namespace layoutproof
