#include "model/layout/cute_int.hpp"

#include <string>

namespace layoutproof::cute_int {
namespace {

const IntTuple& need_int(const IntTuple& a, const char* op) {
  if (!a.is_leaf()) throw LayoutError(std::string(op) + ": expected an integer, got a tuple");
  if (a.is_basis()) (void)a.value();  // throws: a basis stride is not an integer
  return a;
}

IntTuple make(i64 v, bool is_static) { return IntTuple::integer(v, is_static); }

bool both_static(const IntTuple& a, const IntTuple& b) { return a.is_static() && b.is_static(); }

i64 checked_div(i64 a, i64 b, const char* op) {
  if (b == 0) throw LayoutError(std::string(op) + ": division by zero");
  if (a == INT64_MIN && b == -1) throw OverflowError("64-bit overflow: " + std::to_string(a) + " / -1");
  return a / b;
}

}  // namespace

IntTuple mul(const IntTuple& a, const IntTuple& b) {
  if (!a.is_leaf() || !b.is_leaf()) throw LayoutError("mul: expected integers, got a tuple");
  if (a.is_basis() && b.is_basis()) throw LayoutError("mul: two basis strides cannot be multiplied");
  const bool zero_absorbs = a.is_constant(0) || b.is_constant(0);
  const bool st = both_static(a, b) || zero_absorbs;
  const i64 v = checked_mul(a.scale(), b.scale());
  if (a.is_basis()) return IntTuple::basis(v, st, a.basis_path());
  if (b.is_basis()) return IntTuple::basis(v, st, b.basis_path());
  return make(v, st);
}

IntTuple add(const IntTuple& a, const IntTuple& b) {
  return make(checked_add(need_int(a, "add").value(), need_int(b, "add").value()), both_static(a, b));
}

IntTuple sub(const IntTuple& a, const IntTuple& b) {
  return make(checked_sub(need_int(a, "sub").value(), need_int(b, "sub").value()), both_static(a, b));
}

IntTuple div(const IntTuple& a, const IntTuple& b) {
  const i64 q = checked_div(need_int(a, "div").value(), need_int(b, "div").value(), "div");
  return make(q, both_static(a, b) || a.is_constant(0));
}

IntTuple mod(const IntTuple& a, const IntTuple& b) {
  const i64 x = need_int(a, "mod").value(), y = need_int(b, "mod").value();
  if (y == 0) throw LayoutError("mod: division by zero");
  const i64 r = y == -1 ? 0 : x % y;
  return make(r, both_static(a, b) || a.is_constant(0) || b.is_constant(1) || b.is_constant(-1));
}

IntTuple ceil_div(const IntTuple& a, const IntTuple& b) {
  const i64 x = need_int(a, "ceil_div").value(), y = need_int(b, "ceil_div").value();
  return make(checked_div(checked_sub(checked_add(x, y), 1), y, "ceil_div"), both_static(a, b));
}

IntTuple min(const IntTuple& a, const IntTuple& b) {
  return make(std::min(need_int(a, "min").value(), need_int(b, "min").value()), both_static(a, b));
}

IntTuple max(const IntTuple& a, const IntTuple& b) {
  return make(std::max(need_int(a, "max").value(), need_int(b, "max").value()), both_static(a, b));
}

IntTuple gcd(const IntTuple& a, const IntTuple& b) {
  i64 t = need_int(a, "gcd").value(), u = need_int(b, "gcd").value();
  i64 g;
  while (true) {  // CuTe math.hpp
    if (t == 0) { g = u; break; }
    u %= t;
    if (u == 0) { g = t; break; }
    t %= u;
  }
  return make(g, both_static(a, b));
}

IntTuple abs(const IntTuple& a) {
  const i64 v = need_int(a, "abs").value();
  if (v == INT64_MIN) throw OverflowError("64-bit overflow: abs");
  return make(v < 0 ? -v : v, a.is_static());
}

IntTuple signum(const IntTuple& a) { return make(layoutproof::signum(need_int(a, "signum").value()), a.is_static()); }

IntTuple neg(const IntTuple& a) { return make(checked_sub(0, need_int(a, "neg").value()), a.is_static()); }

bool static_equal(const IntTuple& a, const IntTuple& b) {
  if (!a.is_leaf() || !b.is_leaf() || !a.is_static() || !b.is_static()) return false;
  return a.basis_path() == b.basis_path() && a.scale() == b.scale();
}

bool static_less(const IntTuple& a, const IntTuple& b) {
  if (!a.is_leaf() || !b.is_leaf() || a.is_basis() || b.is_basis() || !a.is_static() || !b.is_static()) return false;
  return a.value() < b.value();
}

IntTuple product(const IntTuple& t) {
  if (t.is_leaf()) return need_int(t, "product");
  if (t.rank() == 0) return IntTuple(1);
  IntTuple p = cute_int::product(t[0]);
  for (std::size_t i = 1; i < t.rank(); ++i) p = mul(p, cute_int::product(t[i]));
  return p;
}

// Shared by ceil_div and shape_div: f on integers, folded as CuTe folds tuples.
template <class F>
IntTuple fold_div(const IntTuple& a, const IntTuple& b, F&& f, const char* op) {
  if (a.is_tuple()) {
    std::vector<IntTuple> out;
    if (b.is_tuple()) {
      if (b.rank() > a.rank()) throw LayoutError(std::string(op) + ": mismatched ranks");
      for (std::size_t i = 0; i < a.rank(); ++i) out.push_back(fold_div(a[i], i < b.rank() ? b[i] : IntTuple(1), f, op));
      return IntTuple::tuple(std::move(out));
    }
    IntTuple rest = b;
    for (const auto& ai : a.children()) {
      out.push_back(fold_div(ai, rest, f, op));
      rest = fold_div(rest, ai, f, op);
    }
    return IntTuple::tuple(std::move(out));
  }
  if (b.is_tuple()) return fold_div(a, cute_int::product(b), f, op);
  return f(a, b);
}

IntTuple ceil_div_tuple(const IntTuple& a, const IntTuple& b) {
  return fold_div(a, b, [](const IntTuple& x, const IntTuple& y) { return ceil_div(x, y); }, "ceil_div");
}

IntTuple shape_div(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple() && b.is_tuple() && a.rank() != b.rank()) throw LayoutError("shape_div: mismatched ranks");
  return fold_div(a, b, [](const IntTuple& x, const IntTuple& y) {
    if (x.is_static() && y.is_static()) {
      const i64 p = x.value(), q = y.value();
      if (p == 0 || q == 0 || (p % q != 0 && q % p != 0))
        throw LayoutError("shape_div: " + leaf_text(x) + " and " + leaf_text(y) +
                          " do not divide each other (CuTe's static \"Divisibility Condition\")");
    }
    return ceil_div(x, y);
  }, "shape_div");
}

namespace {

IntTuple compact_leaf(const IntTuple& s, IntTuple& current) {
  if (s.is_constant(1)) return IntTuple(0);
  IntTuple stride = current;
  current = mul(current, s);
  return stride;
}

IntTuple compact_left(const IntTuple& s, IntTuple& current) {
  if (s.is_leaf()) return compact_leaf(s, current);
  std::vector<IntTuple> out;
  for (const auto& c : s.children()) out.push_back(compact_left(c, current));
  return IntTuple::tuple(std::move(out));
}

IntTuple compact_right(const IntTuple& s, IntTuple& current) {
  if (s.is_leaf()) return compact_leaf(s, current);
  std::vector<IntTuple> out(s.rank());
  for (std::size_t i = s.rank(); i-- > 0;) out[i] = compact_right(s[i], current);
  return IntTuple::tuple(std::move(out));
}

}  // namespace

IntTuple compact_col_major(const IntTuple& shape, const IntTuple& current) {
  IntTuple c = current;
  return compact_left(shape, c);
}

IntTuple compact_row_major(const IntTuple& shape, const IntTuple& current) {
  IntTuple c = current;
  return compact_right(shape, c);
}

IntTuple coalesce_shape(const IntTuple& shape) {
  if (shape.is_leaf()) return shape;
  const std::vector<IntTuple> flat = leaf_nodes(shape);
  if (flat.empty()) return shape;
  std::vector<IntTuple> out{flat[0]};
  for (std::size_t i = 1; i < flat.size(); ++i) {
    if (out.back().is_static() == flat[i].is_static()) out.back() = mul(out.back(), flat[i]);
    else out.push_back(flat[i]);
  }
  return out.size() == 1 ? out[0] : IntTuple::tuple(std::move(out));
}

std::string leaf_text(const IntTuple& leaf) {
  std::string s = (leaf.is_static() ? "_" : "") + std::to_string(leaf.scale());
  const std::vector<int>& path = leaf.basis_path();  // CuTe prints the innermost mode first
  for (std::size_t k = path.size(); k-- > 0;) s += "@" + std::to_string(path[k]);
  return s;
}

}  // namespace layoutproof::cute_int
