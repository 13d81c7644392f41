// The layout algebra on swizzled layouts where CuTe's ComposedLayout / Swizzle overloads do more
// than act on the inner layout (CuTe swizzle.hpp, swizzle_layout.hpp, layout_composed.hpp).
#include <bit>
#include <string>

#include "model/algebra/algebra.hpp"
#include "model/algebra/algebra_check.hpp"
#include "model/layout/cute_int.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {

namespace ci = cute_int;

namespace {

std::string n(i64 v) { return std::to_string(v); }

// Sw o _0 o L, or L itself for a B = 0 swizzle (CuTe's identity overload of composition).
AnyLayout swizzled(const Swizzle& sw, const Layout& l) {
  if (sw.B == 0) return AnyLayout(l);
  return AnyLayout(sw, 0, l);
}

// CuTe's composition(Layout a, Swizzle<B,M,S>): make_swizzle<a(yyy_msk), a(zzz_msk)>() o a, where
// a(Y) and a(Z) must be compile-time values (CuTe's template arguments).
AnyLayout compose_with_swizzle(const Layout& a, const Swizzle& sw, const std::string& what) {
  const IntTuple y = evaluate_cute(a, IntTuple(sw.yyy_msk())), z = evaluate_cute(a, IntTuple(sw.zzz_msk()));
  if (!y.is_static() || !z.is_static())
    throw LayoutError(what + ": " + to_cute_string(a) + " at the swizzle's masks (" + to_cute_string(y) + ", " + to_cute_string(z) +
                      ") is not a compile-time value, which CuTe needs to build the new swizzle (a compile error in CuTe)");
  const Swizzle s = make_swizzle(y.value(), z.value());
  return swizzled(s, a);
}

// The swizzle as CuTe's code reads it: the smem_ptr form's byte swizzle is its layout_a (CuTe's
// operations apply it as if it were an element swizzle; layoutproof then checks the result against
// the true, byte-address meaning).
const Swizzle& cute_swizzle(const AnyLayout& l) { return l.is_smem_ptr() ? l.byte_swizzle : *l.swizzle; }

void need_evaluable(const AnyLayout& l, const std::string& what) {
  if (!l.evaluable)
    throw LayoutError(what + ": " + to_cute_string(l) +
                      " moves bytes inside an element (its swizzle has no element-level form), so no result can be checked");
}

void reject_smem_ptr(const AnyLayout& l, const std::string& what) {
  if (l.is_smem_ptr())
    throw LayoutError(what + ": " + to_cute_string(l) +
                      " swizzles byte addresses (smem_ptr); CuTe would apply it here as an element swizzle, so layoutproof refuses");
}

void need_zero_offset(const AnyLayout& l, const std::string& what) {
  if (l.offset != 0 || !l.offset_is_static)
    throw LayoutError(what + ": CuTe requires the swizzle offset to be the static _0 here (\"Require offset == 0.\"; got " +
                      std::string(l.offset_is_static ? "_" : "") + n(l.offset) + ")");
}

}  // namespace

Swizzle make_swizzle(i64 y, i64 z) {
  const std::string what = "make_swizzle<" + n(y) + "," + n(z) + ">";
  if (y < 0 || z < 0 || y > 0xffffffffLL || z > 0xffffffffLL)
    throw LayoutError(what + ": the masks must be 32-bit unsigned values");
  const auto uy = static_cast<std::uint32_t>(y), uz = static_cast<std::uint32_t>(z);
  const int bz = std::popcount(uy), by = std::popcount(uz);
  if (bz != by) throw LayoutError(what + ": CuTe's \"Number of bits in Y and Z don't match\" (a compile error in CuTe)");
  const int tz_y = std::countr_zero(uy), tz_z = std::countr_zero(uz);
  Swizzle s{bz, std::min(tz_y, tz_z) % 32, tz_y - tz_z};
  if (s.abs_s() < s.B) throw LayoutError(what + ": CuTe's \"abs(SShift) must be more than BBits.\" (a compile error in CuTe)");
  if ((s.yyy_msk() | s.zzz_msk()) != static_cast<i64>(uy | uz))
    throw LayoutError(what + ": CuTe's \"Something went wrong.\" (the masks are not those of one swizzle; a compile error in CuTe)");
  return s;
}

AnyLayout composition(const Layout& a, const Swizzle& sw) {
  const std::string what = "composition " + to_cute_string(a) + " o " + to_cute_string(sw);
  const AnyLayout r = compose_with_swizzle(a, sw, what);
  const i64 count = size(a);
  if (count > kCheckLimit) throw LayoutError(what + ": the domain is too large to check CuTe's result");
  for (i64 c = 0; c < count; ++c) {
    const i64 want = evaluate(a, sw.apply(c)), got = evaluate(r, IntTuple(c));
    if (got != want)
      throw LayoutError(what + ": CuTe's result " + to_cute_string(r) + " breaks \"R(c) == A(Sw(c))\" at c = " + n(c) + ": R(c) = " +
                        n(got) + " but A(Sw(c)) = " + n(want));
  }
  return r;
}

AnyLayout composition(const AnyLayout& a, const AnyLayout& b) {
  const std::string what = "composition " + to_cute_string(a) + " o " + to_cute_string(b);
  if (!b.is_swizzled()) return a.with_inner(composition(a.layout, b.layout));
  if (a.is_swizzled())
    throw LayoutError(what + ": composing two swizzled layouts gives a nested ComposedLayout in CuTe, which layoutproof does not represent");
  need_evaluable(b, what);
  need_zero_offset(b, what);
  const AnyLayout outer = compose_with_swizzle(a.layout, cute_swizzle(b), what);
  const AnyLayout r = outer.with_inner(composition(a.layout, b.layout));
  // @post result(c) == A(B(c)) (CuTe: "Works in simple cases... but could be greatly generalized").
  const i64 count = size(b.layout);
  if (count > kCheckLimit) throw LayoutError(what + ": the domain is too large to check CuTe's result against R(c) == A(B(c))");
  for (i64 c = 0; c < count; ++c) {
    const i64 want = evaluate(a, IntTuple(evaluate(b, IntTuple(c)))), got = evaluate(r, IntTuple(c));
    if (got != want)
      throw LayoutError(what + ": CuTe's result " + to_cute_string(r) + " breaks \"R(c) == A(B(c))\" at c = " + n(c) + ": R(c) = " +
                        n(got) + " but A(B(c)) = " + n(want));
  }
  return r;
}

namespace {

// The inverse laws on the whole domain: L(R(i)) == i for i < count (right), L(R(L(i))) == L(i) (left).
template <class R>
void check_inverse(const std::string& what, const AnyLayout& l, const R& r, const std::string& text, bool right, i64 count) {
  const auto at = [](const AnyLayout& x, i64 i) { return evaluate(x, IntTuple(i)); };
  if (count > kCheckLimit) throw LayoutError(what + ": the domain is too large to check CuTe's result");
  for (i64 i = 0; i < count; ++i) {
    if (right && at(l, evaluate(r, i)) != i)
      throw LayoutError(what + ": CuTe's result " + text + " breaks \"L(R(i)) == i\" at i = " + n(i) + ": L(R(i)) = " +
                        n(at(l, evaluate(r, i))));
    if (!right && at(l, evaluate(r, at(l, i))) != at(l, i))
      throw LayoutError(what + ": CuTe's result " + text + " breaks \"L(R(L(i))) == L(i)\" at i = " + n(i));
  }
}


// right_inverse / left_inverse of Sw o _0 o L: composition(inverse(L), Sw).
AnyLayout swizzled_inverse(const AnyLayout& l, bool right) {
  const std::string what = std::string(right ? "right_inverse" : "left_inverse") + " of " + to_cute_string(l);
  reject_smem_ptr(l, what);
  if (l.offset != 0 || !l.offset_is_static)
    throw LayoutError(what + ": with an offset other than _0 CuTe returns Layout o Offset o Swizzle (see inverse_with_offset)");
  const Layout inv = right ? right_inverse(l.layout) : left_inverse(l.layout);
  const AnyLayout r = compose_with_swizzle(inv, *l.swizzle, what);
  check_inverse(what, l, r, to_cute_string(r), right, right ? size(r.layout) : size(l.layout));
  return r;
}

}  // namespace

AnyLayout right_inverse(const AnyLayout& l) {
  if (!l.is_swizzled()) return AnyLayout(right_inverse(l.layout));
  return swizzled_inverse(l, true);
}

AnyLayout left_inverse(const AnyLayout& l) {
  if (!l.is_swizzled()) return AnyLayout(left_inverse(l.layout));
  return swizzled_inverse(l, false);
}

i64 evaluate(const InverseWithOffset& r, i64 x) {
  return layoutproof::evaluate(r.layout, checked_add(r.offset, r.swizzle.apply(x)));
}

std::string to_cute_string(const InverseWithOffset& r) {
  return to_cute_string(r.layout) + " o _" + n(r.offset) + " o " + to_cute_string(r.swizzle);
}

InverseWithOffset inverse_with_offset(const AnyLayout& l, bool right) {
  const std::string what = std::string(right ? "right_inverse" : "left_inverse") + " of " + to_cute_string(l);
  reject_smem_ptr(l, what);
  if (!l.is_swizzled() || (l.offset == 0 && l.offset_is_static))
    throw LayoutError(what + ": inverse_with_offset needs a swizzled layout with an offset other than _0");
  if (!l.offset_is_static)
    throw LayoutError(what + ": CuTe has no inverse of the run-time offset " + n(l.offset) +
                      " (right_inverse(int) is not found: a compile error in CuTe)");
  const Layout inv = right ? right_inverse(l.layout) : left_inverse(l.layout);
  const InverseWithOffset r{inv, checked_sub(0, l.offset), *l.swizzle};
  check_inverse(what, l, r, to_cute_string(r), right, right ? size(inv) : size(l.layout));
  return r;
}

AnyLayout max_common_layout(const AnyLayout& a, const AnyLayout& b) {
  const std::string what = "max_common_layout of " + to_cute_string(a) + " and " + to_cute_string(b);
  if (!a.is_swizzled() && !b.is_swizzled()) return AnyLayout(max_common_layout(a.layout, b.layout));
  if (a.is_swizzled() && b.is_swizzled())
    throw LayoutError(what + ": CuTe has no max_common_layout of two swizzled layouts (a compile error)");
  const AnyLayout& sw = a.is_swizzled() ? a : b;
  const AnyLayout& plain = a.is_swizzled() ? b : a;
  need_evaluable(sw, what);
  const Layout common = max_common_layout(sw.layout, plain.layout);  // CuTe swaps the arguments for (Layout, Swizzled)
  const i64 base = i64{1} << cute_swizzle(sw).M;
  if (!common.shape.is_static()) throw LayoutError(what + ": CuTe compares 2^M with size(common) at compile time; it is not static");
  const Layout r = base < size(common) ? composition_cute(common, Tiler::of_int(base)) : common;
  for (i64 i = 0; i < size(r); ++i) {
    const i64 x = evaluate(r, i);
    if (evaluate(a, IntTuple(x)) != i || evaluate(b, IntTuple(x)) != i)
      throw LayoutError(what + ": CuTe's result " + to_cute_string(r) + " breaks \"A(R(i)) == i and B(R(i)) == i\" at i = " + n(i));
  }
  return AnyLayout(r);
}

IntTuple max_common_vector(const AnyLayout& a, const AnyLayout& b) {
  const std::string what = "max_common_vector of " + to_cute_string(a) + " and " + to_cute_string(b);
  if (!a.is_swizzled() && !b.is_swizzled()) return max_common_vector(a.layout, b.layout);
  need_evaluable(a, what);
  need_evaluable(b, what);
  IntTuple v;
  if (a.is_swizzled() && b.is_swizzled()) {
    v = max_common_vector(a.layout, b.layout);
    if (!(cute_swizzle(a) == cute_swizzle(b)))
      v = ci::min(v, ci::min(IntTuple(i64{1} << cute_swizzle(a).M), IntTuple(i64{1} << cute_swizzle(b).M)));
  } else {
    const AnyLayout& sw = a.is_swizzled() ? a : b;
    const AnyLayout& plain = a.is_swizzled() ? b : a;
    v = ci::min(max_common_vector(sw.layout, plain.layout), IntTuple(i64{1} << cute_swizzle(sw).M));
  }
  // @post: A(r(i)) == i and B(r(i)) == i for i < v, r the right inverse of B's inner layout.
  const Layout r = right_inverse(b.layout);
  for (i64 i = 0; i < v.value(); ++i) {
    const i64 x = evaluate(r, i);
    if (evaluate(a, IntTuple(x)) != i || evaluate(b, IntTuple(x)) != i)
      throw LayoutError(what + ": CuTe's result " + to_cute_string(v) + " breaks \"A(R(i)) == i and B(R(i)) == i\" at i = " + n(i));
  }
  return v;
}

}  // namespace layoutproof
