#include "model/source/cpp_source.hpp"

#include <cctype>
#include <vector>

#include "model/source/cpp_expr.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {

IntTuple compact_row_major(const IntTuple& shape) {
  // Walk the leaves from the last to the first, the way LayoutRight orders strides (CuTe's
  // compact_major<LayoutRight>): a static size-1 mode gets a static 0, every other mode the running
  // product, which stays static while every shape after it is.
  const std::vector<IntTuple> s = leaf_nodes(shape);
  std::vector<IntTuple> d(s.size());
  IntTuple cur(1);
  for (std::size_t k = s.size(); k-- > 0;) {
    if (s[k].is_constant(1)) {
      d[k] = IntTuple(0);
      continue;
    }
    d[k] = cur;
    cur = IntTuple::integer(checked_mul(cur.value(), s[k].value()), cur.is_static() && s[k].is_static());
  }
  std::size_t k = 0;
  return map_leaves(shape, [&](const IntTuple&) { return d[k++]; });
}

namespace {

bool notation_word(std::string_view w) {
  if (w == "Sw" || w == "o" || w == "smem_ptr" || w == "unset") return true;
  if (w.size() < 2 || w[0] != '_') return false;
  for (std::size_t i = 1; i < w.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(w[i]))) return false;
  return true;
}

// The text with C++'s evaluation turned into a layout: a shape means its compact column-major layout.
LayoutOrSwizzle from_cpp(std::string_view text, const CppConstants& constants) {
  CppEvaluator ev(parse_cpp_program(text), constants);
  const CppValue v = ev.eval_result();
  LayoutOrSwizzle out;
  switch (v.kind) {
    case CppValue::Kind::layout: out.layout = v.layout; return out;
    case CppValue::Kind::swizzle:
      out.layout.swizzle = v.swizzle;
      out.bare_swizzle = true;
      return out;
    case CppValue::Kind::integer: {
      const IntTuple n = IntTuple::integer(v.integer, v.is_static);
      out.layout = AnyLayout(Layout(n, compact_col_major(n)));
      return out;
    }
    case CppValue::Kind::tuple: out.layout = AnyLayout(Layout(v.tuple, compact_col_major(v.tuple))); return out;
    default: break;
  }
  const CppProgram& p = ev.program();
  ev.fail_expected(p.result ? *p.result : p.bindings.back().value, "a layout", v);
}

// Sw<B,M,S> alone (no " o "): a bare swizzle in CuTe notation.
bool bare_swizzle_notation(std::string_view text) {
  const bool has_o = text.find(" o ") != std::string_view::npos || text.find(")o") != std::string_view::npos ||
                     text.find(">o") != std::string_view::npos;
  const std::size_t first = text.find_first_not_of(" \t");
  return !has_o && first != std::string_view::npos && text.substr(first, 2) == "Sw" && text.find("smem_ptr") == std::string_view::npos;
}

}  // namespace

bool looks_like_cpp_source(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isdigit(c)) {  // 16b of smem_ptr[16b] is not a name
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
    } else if (std::isalpha(c) || c == '_') {
      const std::size_t start = i;
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
      const std::string_view w = text.substr(start, i - start);
      // CuTe's printed forms: a static negative integer `_-1`, a basis `E<1,0>` (as in `_1@0`).
      const bool static_negative = w == "_" && i + 1 < text.size() && text[i] == '-' && std::isdigit(static_cast<unsigned char>(text[i + 1]));
      const bool basis = w == "E" && i < text.size() && text[i] == '<';
      if (!static_negative && !basis && !notation_word(w)) return true;
    } else {
      ++i;
    }
  }
  return false;
}

AnyLayout parse_cpp_layout(std::string_view text) { return parse_cpp_layout(text, {}); }

AnyLayout parse_cpp_layout(std::string_view text, const CppConstants& constants) {
  const LayoutOrSwizzle l = from_cpp(text, constants);
  if (l.bare_swizzle) {
    CppEvaluator ev(parse_cpp_program(text), constants);
    const CppProgram& p = ev.program();
    ev.fail(p.result ? *p.result : p.bindings.back().value,
            "expected a layout, got swizzle " + to_string(*l.layout.swizzle) + " (compose it: composition(Swizzle<...>{}, layout))");
  }
  return l.layout;
}

LayoutOrSwizzle parse_layout_or_swizzle(std::string_view text, const CppConstants& constants) {
  if (looks_like_cpp_source(text)) return from_cpp(text, constants);
  LayoutOrSwizzle out;
  if (bare_swizzle_notation(text)) {
    out.layout.swizzle = parse_swizzle(text);
    out.bare_swizzle = true;
    return out;
  }
  try {
    out.layout = parse_any_layout(text);
    return out;
  } catch (const ParseError&) {
    // Arithmetic such as 8*64 is no notation but is C++; otherwise the notation's error stands.
    try {
      return from_cpp(text, constants);
    } catch (const LayoutError&) {
    }
    throw;
  }
}

AnyLayout parse_layout_any_syntax(std::string_view text) { return parse_layout_any_syntax(text, {}); }

AnyLayout parse_layout_any_syntax(std::string_view text, const CppConstants& constants) {
  if (looks_like_cpp_source(text)) return parse_cpp_layout(text, constants);
  if (bare_swizzle_notation(text)) return parse_any_layout(text);  // the notation's own error for a bare Sw<...>
  const LayoutOrSwizzle l = parse_layout_or_swizzle(text, constants);
  if (l.bare_swizzle) return parse_any_layout(text);
  return l.layout;
}

}  // namespace layoutproof
