#pragma once
// The one input path: every command turns a user's layout text into a layout here, whether the
// text is CuTe notation or the C++ a kernel writes. The grammar and the built-ins
// are model/source/cpp_expr.hpp's (using/auto bindings, tile_to_shape, GMMA atoms, selectors, ...):
//   composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})
//   make_layout(make_shape(8,64), make_stride(64,1))        make_layout(make_shape(_8,_64), LayoutRight{})
//   tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(bM, bK, Int<Stages>{}))   with -D bM=...
//   using SmemLayoutAtom = decltype(...); using SmemLayout = decltype(tile_to_shape(SmemLayoutAtom{}, ...));
// Integers may be 8, _8, Int<8>{}, C<8>{}, Int<8>; `cute::` prefixes and white space are ignored.
// A shape without strides (Layout<Shape<...>>{}, make_layout(shape), LayoutLeft{}) is column-major
// as in CuTe; LayoutRight{} / GenRowMajor{} gives row-major strides.
//
// Which syntax: text with a C++ name in it (anything but the notation's words Sw, o, smem_ptr, unset
// and _N) is C++; other text is CuTe notation, and C++ when it is not valid notation. An error is
// reported in the syntax the text is written in, with the column of the offending character.
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "model/layout/composed.hpp"

namespace layoutproof {

using CppConstants = std::map<std::string, std::string>;  // NAME (may be qualified: A::B) -> C++ expression

// True when the text looks like C++ source (names a C++ identifier other than the notation's words:
// make_layout, Layout<, composition(, tile_to_shape(, bM, using, ...). CuTe's printed words are
// notation: Sw, o, smem_ptr, unset, _8, the static negative _-1 and the basis E<1,0> (and _1@0), so
// `(4,8):(_-1,4)` and `(_4,_8):(E<0>,E<1>)` are read as notation.
bool looks_like_cpp_source(std::string_view text);
// Parses the C++ form; throws ParseError (with column) on malformed input.
// The value is the program's trailing expression or else its last binding; a shape means its compact
// column-major layout.
AnyLayout parse_cpp_layout(std::string_view text);
// The same with constants (-D NAME=EXPR: NAME -> C++ source of an expression).
AnyLayout parse_cpp_layout(std::string_view text, const CppConstants& constants);

// The one input path: CuTe notation or C++ source, whichever the text is; the constants (-D NAME=EXPR,
// a spec's constants:) are visible to C++. Throws ParseError (column and caret) or LayoutError.
AnyLayout parse_layout_any_syntax(std::string_view text);
AnyLayout parse_layout_any_syntax(std::string_view text, const CppConstants& constants);

// What `prove` takes: a layout, or a bare swizzle (Sw<3,4,3>, Swizzle<3,4,3>{}).
struct LayoutOrSwizzle {
  AnyLayout layout;                   // a bare swizzle: layout.swizzle holds it, layout.layout unused
  bool bare_swizzle = false;
};
LayoutOrSwizzle parse_layout_or_swizzle(std::string_view text, const CppConstants& constants = {});

// compact_row_major(shape): the generalized row-major strides (CuTe's compact_major<LayoutRight>):
// a static size-1 mode gets stride _0; a run-time one the running product, as CuTe cannot see it is 1.
// compact_row_major((_2,_1,_3)) = (_3,_0,_1); compact_row_major((2,1,3)) = (3,3,_1).
IntTuple compact_row_major(const IntTuple& shape);

}  // namespace layoutproof
