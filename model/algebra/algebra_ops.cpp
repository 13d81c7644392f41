// max_common_layout, max_common_vector, nullspace, make_layout_like, domain_distribute (CuTe
// layout.hpp, CUTLASS 4.x), staticness included, each with its definition check.
#include <functional>
#include <string>
#include <unordered_set>

#include "model/algebra/algebra.hpp"
#include "model/algebra/algebra_check.hpp"
#include "model/layout/cute_int.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {

namespace ci = cute_int;

namespace {

std::string n(i64 v) { return std::to_string(v); }

// layout<0>(L): mode 0, or L itself for an integer layout.
Layout mode0(const Layout& l) { return l.shape.is_leaf() ? l : l.mode(0); }

// The common layout and whether CuTe keeps it: coalesce(composition(A, right_inverse(B))) with a
// static mode-0 shape and a static _1 mode-0 stride.
struct Common {
  Layout inv_b, common;
  bool vector;
};

Common common_of(const Layout& a, const Layout& b) {
  Common c{right_inverse(b), {}, false};
  c.common = coalesce(composition_cute(a, c.inv_b));
  const Layout m = mode0(c.common);
  c.vector = m.shape.is_static() && m.stride.is_constant(1);
  return c;
}

// @post of max_common_*: A(R(i)) == i and B(R(i)) == i for i < n, R(i) = inv_b(i).
void check_common(const std::string& what, const AnyLayout& a, const AnyLayout& b, const Layout& r, i64 count) {
  if (count > kCheckLimit) throw LayoutError(what + ": the common vector of " + n(count) + " elements is too large to check");
  for (i64 i = 0; i < count; ++i) {
    const i64 x = evaluate(r, i);
    const i64 ax = evaluate(a, IntTuple(x)), bx = evaluate(b, IntTuple(x));
    if (ax != i || bx != i)
      throw LayoutError(what + ": CuTe's result breaks \"A(R(i)) == i and B(R(i)) == i\" at i = " + n(i) + ": A(R(i)) = " + n(ax) +
                        ", B(R(i)) = " + n(bx));
  }
}

}  // namespace

Layout max_common_layout(const Layout& a, const Layout& b) {
  const Common c = common_of(a, b);
  const Layout r = c.vector ? composition_cute(c.inv_b, mode0(c.common)) : Layout(1, 0);
  check_common("max_common_layout of " + to_cute_string(a) + " and " + to_cute_string(b), a, b, r, size(r));
  return r;
}

IntTuple max_common_vector(const Layout& a, const Layout& b) {
  const Common c = common_of(a, b);
  const IntTuple v = c.vector ? mode0(c.common).shape : IntTuple(1);
  check_common("max_common_vector of " + to_cute_string(a) + " and " + to_cute_string(b), a, b, c.inv_b, v.value());
  return v;
}

Layout nullspace(const Layout& l) {
  const std::vector<IntTuple> shape = leaf_nodes(l.shape), stride = leaf_nodes(l.stride);
  const IntTuple flat_shape = flatten(l.shape);
  const std::vector<IntTuple> rstride = leaf_nodes(ci::compact_col_major(flat_shape));
  std::vector<IntTuple> ks, kd;
  for (std::size_t i = 0; i < stride.size(); ++i)
    if (stride[i].is_constant(0)) {
      ks.push_back(shape[i]);
      kd.push_back(rstride[i]);
    }
  if (ks.empty()) return Layout(1, 0);
  const Layout r = ks.size() == 1 ? raw_layout(ks[0], kd[0]) : raw_layout(IntTuple::tuple(ks), IntTuple::tuple(kd));
  // @post: L(R(i)) == 0 and size(R) == size(L) / size(filter(L)) (checked when small).
  const std::string what = "nullspace of " + to_cute_string(l);
  if (size(r) != size(l) / size(filter(l)))
    throw LayoutError(what + ": CuTe's result " + to_cute_string(r) + " breaks \"size(R) == size(L) / size(filter(L))\"");
  if (size(r) <= kCheckLimit)
    for_each_offset(r, [&](i64 i, i64 x) {
      if (evaluate(l, x) != 0)
        throw LayoutError(what + ": CuTe's result " + to_cute_string(r) + " breaks \"L(R(i)) == 0\" at i = " + n(i));
      return true;
    });
  return r;
}

namespace {

// filter_zeros(a, b) (int_tuple.hpp): b with every subtree paired with a static _0 of a made all _1.
IntTuple filter_zeros_by(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    std::vector<IntTuple> out;
    for (std::size_t i = 0; i < a.rank(); ++i) out.push_back(filter_zeros_by(a[i], b[i]));
    return IntTuple::tuple(std::move(out));
  }
  if (a.is_constant(0)) return map_leaves(b, [](const IntTuple&) { return IntTuple(1); });
  return b;
}

// detail::compact_order: each leaf o of the order gets the compact column-major strides of its
// shape, starting at the product of the reference shapes whose reference order is below o.
IntTuple compact_order_impl(const IntTuple& shape, const IntTuple& order, const std::vector<IntTuple>& ref_shape,
                            const std::vector<IntTuple>& ref_order) {
  if (order.is_tuple()) {
    std::vector<IntTuple> out;
    for (std::size_t i = 0; i < order.rank(); ++i) out.push_back(compact_order_impl(shape[i], order[i], ref_shape, ref_order));
    return IntTuple::tuple(std::move(out));
  }
  IntTuple start;
  for (std::size_t j = 0; j < ref_shape.size(); ++j) {
    const IntTuple f = ref_order[j].value() < order.value() ? ref_shape[j] : IntTuple(1);
    start = j == 0 ? f : ci::mul(start, f);  // product of the tuple: a left fold of its elements
  }
  return ci::compact_col_major(shape, start);
}

// compact_order(shape, order) (stride.hpp): dynamic orders count as larger than every static one,
// ordered left to right.
IntTuple compact_order(const IntTuple& shape, const IntTuple& order) {
  const std::vector<IntTuple> flat_order = leaf_nodes(order);
  std::vector<IntTuple> ref_shape;  // flatten(product_like(shape, order))
  for (std::size_t k = 0; k < flat_order.size(); ++k) ref_shape.push_back(IntTuple(0));
  {
    std::size_t k = 0;
    std::function<void(const IntTuple&, const IntTuple&)> walk = [&](const IntTuple& s, const IntTuple& o) {
      if (o.is_leaf()) {
        ref_shape[k++] = ci::product(s);
        return;
      }
      for (std::size_t i = 0; i < o.rank(); ++i) walk(s[i], o[i]);
    };
    walk(shape, order);
  }
  IntTuple max_order(0);
  for (const IntTuple& o : flat_order)
    if (ci::static_less(max_order, o)) max_order = o;
  std::vector<IntTuple> ref_order;
  for (std::size_t j = 0; j < flat_order.size(); ++j)
    ref_order.push_back(flat_order[j].is_static() ? flat_order[j] : IntTuple(checked_add(max_order.value() + 1, static_cast<i64>(j))));
  std::size_t k = 0;
  const IntTuple new_order = map_leaves(order, [&](const IntTuple&) { return ref_order[k++]; });
  return compact_order_impl(shape, new_order, ref_shape, ref_order);
}

}  // namespace

Layout make_layout_like(const Layout& l) {
  for (const IntTuple& d : leaf_nodes(l.stride))
    if (d.is_basis()) throw LayoutError("make_layout_like of " + to_cute_string(l) + ": basis strides have no order");
  const Layout r = raw_layout(l.shape, compact_order(filter_zeros_by(l.stride, l.shape), l.stride));
  // @post: without its static-_0 modes, R is a bijection onto [0, size).
  const Layout f = filter_zeros(r);
  const i64 count = size(f);
  if (count <= kCheckLimit) {
    std::vector<char> seen(static_cast<std::size_t>(count), 0);
    for_each_offset(f, [&](i64 i, i64 x) {
      if (x < 0 || x >= count || seen[static_cast<std::size_t>(x)])
        throw LayoutError("make_layout_like of " + to_cute_string(l) + ": CuTe's result " + to_cute_string(r) +
                          " is not compact (\"its non-_0-stride modes are a bijection onto [0," + n(count) + ")\" fails at index " +
                          n(i) + ", offset " + n(x) + ")");
      seen[static_cast<std::size_t>(x)] = 1;
      return true;
    });
  }
  return r;
}

Layout domain_distribute(const IntTuple& a, const IntTuple& b) {
  const std::string what = "domain_distribute(" + to_cute_string(a) + ", " + to_cute_string(b) + ")";
  if (!b.is_leaf()) throw LayoutError(what + ": CuTe's static_assert(is_integral<ShapeB>) fails: B must be an integer");
  if (!b.is_static()) throw LayoutError(what + ": CuTe's static_assert(is_static<ShapeB>) fails: B must be static");
  const IntTuple flat_a = flatten(a);
  if (!flat_a.is_static()) throw LayoutError(what + ": CuTe's static_assert(is_static<decltype(flat_shape_a)>) fails: A must be static");
  std::vector<IntTuple> result_shape;
  IntTuple rest = b;
  for (const IntTuple& ai : leaf_nodes(flat_a)) {
    const IntTuple g = ci::gcd(ai, rest);
    result_shape.push_back(g);
    rest = ci::div(rest, g);
  }
  const IntTuple wrapped = flat_a.is_leaf() ? IntTuple::tuple({flat_a}) : flat_a;
  const Layout r = coalesce(raw_layout(IntTuple::tuple(result_shape), ci::compact_col_major(wrapped)));
  // @post: size(B) is a multiple of size(R); A is evenly divided by R; R is ordered.
  const i64 sr = size(r), sa = product(a);
  if (sr < 1 || b.value() % sr != 0) throw LayoutError(what + ": CuTe's result " + to_cute_string(r) + " breaks \"evenly_divides(B, size(R))\"");
  const i64 rest_a = size(complement_cute(r, flat_a));
  if (checked_mul(sr, rest_a) != sa) throw LayoutError(what + ": CuTe's result " + to_cute_string(r) + " breaks \"evenly_divides(A, R)\"");
  const std::vector<i64> o = offsets(r);
  for (i64 i = 1; i < sr; ++i)
    if (!(o[i - 1] < o[i])) throw LayoutError(what + ": CuTe's result " + to_cute_string(r) + " breaks \"R(i) < R(j) for i < j\" (ordered)");
  return r;
}

}  // namespace layoutproof
