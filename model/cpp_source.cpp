#include "model/cpp_source.hpp"

#include <vector>

#include "model/cpp_expr.hpp"
#include "model/notation.hpp"

namespace layoutproof {

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
  // `Swizzle<` alone also starts CuTe notation (Swizzle<3,4,3> o (8,64):(64,1)): only C++ without " o ".
  if (text.find("Swizzle<") != std::string_view::npos && text.find(" o ") == std::string_view::npos) return true;
  for (const char* w : {"make_layout", "Layout<", "composition(", "make_composed_layout", "tile_to_shape(",
                        "make_ordered_layout(", "using ", "auto ", "decltype("})
    if (text.find(w) != std::string_view::npos) return true;
  return false;
}

AnyLayout parse_cpp_layout(std::string_view text) { return parse_cpp_layout(text, {}); }

AnyLayout parse_cpp_layout(std::string_view text, const std::map<std::string, std::string>& constants) {
  CppEvaluator ev(parse_cpp_program(text), constants);
  const CppValue v = ev.eval_result();
  if (v.kind == CppValue::Kind::layout) return v.layout;
  // A shape alone is its compact column-major layout, as in CuTe notation.
  if (v.kind == CppValue::Kind::integer) return AnyLayout(Layout(v.integer, compact_col_major(IntTuple(v.integer))));
  if (v.kind == CppValue::Kind::tuple) return AnyLayout(Layout(v.tuple, compact_col_major(v.tuple)));
  const CppProgram& p = ev.program();
  ev.fail(p.result ? *p.result : p.bindings.back().value, "expected a layout, got " + v.describe());
}

AnyLayout parse_layout_any_syntax(std::string_view text) {
  return looks_like_cpp_source(text) ? parse_cpp_layout(text) : parse_any_layout(text);
}

}  // namespace layoutproof
