#pragma once
// CuTe's integer arithmetic on IntTuple leaves, staticness included (CuTe integral_constant.hpp,
// math.hpp, arithmetic_tuple.hpp).
//
// Definition: an operation on two static leaves (C<a> op C<b>) is static; one with a run-time int
// is dynamic, except where CuTe's overloads absorb the run-time operand:
//   _0 * x = _0    x * _0 = _0    _0 / x = _0    _0 % x = _0    x % _1 = _0    x % _-1 = _0
// min, max, gcd, lcm, ceil_div and shape_div are static only when both operands are; abs, signum
// and unary minus keep the operand's staticness.
// Values follow C++ on int: / and % truncate toward zero (checked: overflow and division by zero
// throw), abs(x) = x < 0 ? -x : x, signum(x) = (0 < x) - (x < 0), gcd is CuTe's Euclid loop
// (its sign follows the operands), lcm(a,b) = (a / gcd(a,b)) * b, ceil_div(a,b) = (a + b - 1) / b.
//
// Basis strides (ScaledBasis value@path): mul() scales one (x * _1@0 = x@0, keeping the path);
// every other function takes integer leaves only (LayoutError otherwise).
//
// Example: mul(_4, 8) = 32 (dynamic), mul(_0, 8) = _0, ceil_div(_6, _4) = _2, mod(7, _1) = _0.
#include "model/layout/int_tuple.hpp"

namespace layoutproof::cute_int {

IntTuple mul(const IntTuple& a, const IntTuple& b);
IntTuple add(const IntTuple& a, const IntTuple& b);
IntTuple sub(const IntTuple& a, const IntTuple& b);
IntTuple div(const IntTuple& a, const IntTuple& b);
IntTuple mod(const IntTuple& a, const IntTuple& b);
IntTuple ceil_div(const IntTuple& a, const IntTuple& b);
IntTuple min(const IntTuple& a, const IntTuple& b);
IntTuple max(const IntTuple& a, const IntTuple& b);
IntTuple gcd(const IntTuple& a, const IntTuple& b);
IntTuple abs(const IntTuple& a);
IntTuple signum(const IntTuple& a);
IntTuple neg(const IntTuple& a);

// CuTe's is_constant<true, decltype(a == b)>: both static (a basis compares its path and scale) and equal.
bool static_equal(const IntTuple& a, const IntTuple& b);
// CuTe's is_constant<true, decltype(a < b)>: both static integers and a < b.
bool static_less(const IntTuple& a, const IntTuple& b);

// Tuple-level functions, each CuTe's (int_tuple.hpp, stride.hpp), with staticness.
// product(t): _1 for the empty tuple, else the left fold of mul over the leaves.
IntTuple product(const IntTuple& t);
// ceil_div(a, b): tuple/tuple by mode (missing modes of b are _1); tuple/int folds b through a's
// modes: ceil_div((4,6), 3) = (2,6); int/tuple divides by product(b).
IntTuple ceil_div_tuple(const IntTuple& a, const IntTuple& b);
// shape_div(a, b): as ceil_div on integers (CuTe 4.x), tuple/int folds, int/tuple by product(b).
// A static pair that does not divide either way is CuTe's compile error "Divisibility Condition".
IntTuple shape_div(const IntTuple& a, const IntTuple& b);
// compact_major<LayoutLeft>(shape, current): exclusive prefix products; a static _1 mode gets _0.
// compact_col_major((2,_1,_3)) = (_1,_0,2)  (the first stride is the static start _1, then 2 is dynamic).
IntTuple compact_col_major(const IntTuple& shape, const IntTuple& current = IntTuple(1));
// compact_major<LayoutRight>: the same from the last mode backwards.
IntTuple compact_row_major(const IntTuple& shape, const IntTuple& current = IntTuple(1));
// coalesce(shape): flatten, then merge neighbours that are both static or both dynamic.
// coalesce((_2,_4,6,_8)) = (_8,6,_8)
IntTuple coalesce_shape(const IntTuple& shape);
// The CuTe text of one leaf: `_8`, `8`, `_-1`, `_1@0`, `3@1@0`.
std::string leaf_text(const IntTuple& leaf);

}  // namespace layoutproof::cute_int
