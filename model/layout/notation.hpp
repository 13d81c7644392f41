#pragma once
// CuTe notation: parsing, canonical printing and CuTe's exact printed text.
//
// Accepted (white space between tokens is ignored):
//   int tuples   8   _8   (8,32)   ((2,3),4)   (4)          a 1-tuple stays a 1-tuple; () is the empty tuple
//   basis        _1@0   3@0@1   E<1>   E<1,0>{}             CuTe's ScaledBasis (strides only); CuTe prints
//                the mode path innermost first: E<1,0>{} (mode 1, its sub-mode 0) prints _1@0@1
//   layouts      8:4   (8,32):(32,1)   ((2,3),4):((1,2),6)   (4):(1)   (_4,_4):(_1@1,_1@0)
//                a shape alone means its compact column-major layout: (2,3) = (2,3):(1,2)
//   swizzles     Sw<3,4,3>   Swizzle<3,4,3>
//   swizzled     Sw<3,4,3> o _0 o (8,64):(64,1)     the offset may be left out: Sw<3,3,3> o (8,64):(64,1)
//                Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)
//                             CuTe's printed smem_ptr_flag_bits<16>: the swizzle acts on BYTE addresses
//                             of 16-bit elements (AnyLayout::smem_ptr, model/layout/composed.hpp)
//   tilers       [8:1,(2,2):(1,4)]   [4,_]   an integer n means n:1, _ keeps the mode
//                (_2:_1,_4:_2)  (_8,_)      CuTe's printed Tile<...>: a parenthesized by-mode tuple
//
// STATIC AND DYNAMIC INTEGERS. CuTe prints a compile-time integer with `_` (`_8`) and a run-time
// one without (`8`); the two give differently structured results (coalesce never merges a dynamic
// mode, ...). How a text's bare integers are read:
//   Reading::automatic (the default): a text with NO `_`-integer anywhere (`(8,64):(64,1)`) is read
//       all static, as layoutproof always did, so existing scripts keep their meaning; a text with at
//       least one `_`-integer (`(_8,64):(_64,1)`) is read exactly: `_8` static, `8` dynamic.
//   Reading::exact: always exactly (`8` is dynamic): CuTe's printed text, as `--cute-text` reads it.
// Swizzle parameters (Sw<3,4,3>) and the underscore tiler `_` are not integers here.
//
// Printing: to_string is canonical (no underscores, no spaces inside layouts, 1-tuples keep their
// parentheses, `Sw<B,M,S> o OFFSET o LAYOUT`); to_cute_string is CuTe's print() text, staticness
// included: `(_8,_64):(_64,_1)`, `_1:_0`, `Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`, `(8,_4):(_1,8)`.
#include <string>
#include <string_view>

#include "model/layout/composed.hpp"
#include "model/layout/tiler.hpp"

namespace layoutproof {

// A malformed input: what was expected, at which column (1-based).
struct ParseError : LayoutError {
  ParseError(const std::string& expected, std::size_t column, std::string input);
  // A message that is not "expected ...": located(msg, 3, "(((") says "msg at column 3 of '((('".
  static ParseError located(const std::string& message, std::size_t column, std::string input);
  std::size_t column;
  std::string input;
  // Two lines: the input and a caret under the offending column.
  std::string caret() const;

 private:
  struct Plain {};
  ParseError(Plain, const std::string& message, std::size_t column, std::string input);
};

// Parentheses and brackets nest at most this deep in CuTe notation (and in the raster formulas):
// deeper input is "nesting deeper than 200" (exit 2), never a stack overflow (no CuTe layout nests
// more than a few levels).
inline constexpr int kMaxNotationDepth = 200;

enum class Reading { automatic, exact };
// True when the text has a `_`-integer (`_8`, `_-1`) anywhere: Reading::automatic then reads it exactly.
bool has_static_marker(std::string_view text);

std::string to_string(const IntTuple& t);
std::string to_string(const Layout& l);
std::string to_string(const Swizzle& s);
std::string to_string(const AnyLayout& l);

// CuTe's printed text (print(x) in CuTe C++).
std::string to_cute_string(const IntTuple& t);
std::string to_cute_string(const Layout& l);
std::string to_cute_string(const Swizzle& s);
std::string to_cute_string(const AnyLayout& l);
std::string to_cute_string(const Tiler& t);

IntTuple parse_int_tuple(std::string_view text, Reading r = Reading::automatic);
// A plain layout (a shape alone gets compact column-major strides).
Layout parse_layout(std::string_view text, Reading r = Reading::automatic);
// A plain or swizzled layout. A bare swizzle `Sw<B,M,S>` is rejected here (see parse_swizzle).
// An smem_ptr form whose swizzle has no element-level equivalent is rejected unless
// allow_unevaluable (the algebra prints such layouts; AnyLayout::evaluable is then false).
AnyLayout parse_any_layout(std::string_view text, Reading r = Reading::automatic, bool allow_unevaluable = false);
Swizzle parse_swizzle(std::string_view text);
// A tiler: a bracketed or parenthesized by-mode tuple, a layout, an integer, `_`, or a shape tuple
// (by-mode ints).
Tiler parse_tiler(std::string_view text, Reading r = Reading::automatic);

}  // namespace layoutproof
