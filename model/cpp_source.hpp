#pragma once
// Layouts written as in C++ source, so users can paste from their kernels (issue 7); the grammar and
// the built-ins are model/cpp_expr.hpp's (using/auto bindings, tile_to_shape, arithmetic, ...):
//   composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})
//   make_layout(make_shape(8,64), make_stride(64,1))        make_layout(make_shape(_8,_64), LayoutRight{})
//   composition(Swizzle<3,4,3>{}, Int<0>{}, make_layout(...)) make_composed_layout(Swizzle<...>{}, 0, ...)
// Integers may be 8, _8, Int<8>{}, C<8>{}, Int<8>; `cute::` prefixes and white space are ignored.
// A shape without strides (Layout<Shape<...>>{}, make_layout(shape), LayoutLeft{}) is column-major
// as in CuTe; LayoutRight{} / GenRowMajor{} gives row-major strides.
#include <map>
#include <string>
#include <string_view>

#include "model/composed.hpp"

namespace layoutproof {

// True when the text looks like C++ source (contains make_layout, Layout<, composition(, tile_to_shape(,
// make_ordered_layout(, using , auto , decltype(, ...).
bool looks_like_cpp_source(std::string_view text);
// Parses the C++ form; throws ParseError (with column) on malformed input.
// The value is the program's trailing expression or else its last binding; a shape means its compact
// column-major layout.
AnyLayout parse_cpp_layout(std::string_view text);
// The same with constants (-D NAME=EXPR: NAME -> C++ source of an expression).
AnyLayout parse_cpp_layout(std::string_view text, const std::map<std::string, std::string>& constants);
// CuTe notation or C++ source, whichever the text is.
AnyLayout parse_layout_any_syntax(std::string_view text);

// compact_row_major(shape): the generalized row-major strides (size-1 modes get stride 0).
IntTuple compact_row_major(const IntTuple& shape);

}  // namespace layoutproof
