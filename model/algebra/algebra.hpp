#pragma once
// The CuTe layout algebra (CuTe layout.hpp, swizzle_layout.hpp, layout_composed.hpp; CUTLASS 4.x).
//
// Each operation returns exactly the layout CuTe C++ returns, structure and staticness included
// (`_8` static vs `8` dynamic leaves, model/layout/int_tuple.hpp), or throws LayoutError naming the
// violated condition: a condition CuTe checks at compile time (its static_assert text is quoted),
// or a post-condition CuTe's result breaks (model/algebra/algebra_check.hpp lists them).
//
// Where static and dynamic differ (read CuTe's is_static / is_constant branches):
//   coalesce merges two modes only when the product and the front stride are static and equal,
//     skips only static _1 modes: coalesce((2,4):(_1,2)) = (2,4):(_1,2), coalesce((_2,_4):(_1,_2)) = _8:_1
//   composition checks its divisibility conditions only on static operands and keeps run-time
//     rests unmerged; complement needs static strides beyond rank 1; right_inverse drops dynamic
//     strides; left_inverse requires static strides.
#include <string>

#include "model/layout/composed.hpp"
#include "model/layout/layout.hpp"
#include "model/layout/tiler.hpp"

namespace layoutproof {

// coalesce(L): CuTe's bw_coalesce over the flattened modes, from the last one backwards.
// @post depth(result) <= 1, size(result) == size(L), result(i) == L(i) for i < size(L)
// @post a single remaining mode is an integer layout; nothing left gives _1:_0
// Example: coalesce((_2,(_1,_6)):(_1,(_6,_2))) = _12:_1; coalesce((2,_4):(_1,2)) = (2,_4):(_1,2)
Layout coalesce(const Layout& l);
// coalesce(L, profile): coalesce applied at the terminals of profile; modes past rank(profile)
// are kept. coalesce((2,(1,6)):(1,(6,2)), (1,1)) = (2,6):(1,2)
// @pre rank(profile) <= rank(L) when profile is a tuple
Layout coalesce(const Layout& l, const IntTuple& profile);
// coalesce_x(L): like coalesce but also keeps the function outside the domain (a trailing static
// _1 mode becomes _2 before coalescing). coalesce_x((_4,_1):(_1,_0)) = (_4,_2):(_1,_0)
Layout coalesce_x(const Layout& l);
Layout coalesce_x(const Layout& l, const IntTuple& profile);
// filter_zeros(L): the shape of every static-_0-stride mode becomes _1 (a run-time 0 stays).
Layout filter_zeros(const Layout& l);
// filter(L) = coalesce(filter_zeros(L)): drop stride-_0 and size-_1 modes.
Layout filter(const Layout& l);

// composition(A, B) = A o B (CuTe: composition_impl(coalesce_x(A, coprofile(B)), B)).
// @post 1 compatible(B, result): result has B's profile (each mode of B composed on its own)
// @post 2 result(c) == A(B(c)) for every c in B's domain
// @pre CuTe's static "Stride Divisibility Condition" and "Shape Divisibility Condition" hold
//      (compile errors in CuTe); run-time operands are not checked by CuTe: its result is then
//      returned only when it meets @post 1 and 2 (checked, model/algebra/algebra_check.hpp)
// B's strides may be basis elements (E<1>, _1@1): each picks the mode of A it names.
// Example: composition((_4,_3):(_3,_1), _24:_1) = (_4,_6):(_3,_1)
//          composition((_4,_4):(_4,_1), (_4,_4):(_1@1,_1@0)) = (_4,_4):(_1,_4)
Layout composition(const Layout& a, const Layout& b);
// composition(A, tiler): by-mode for a tuple tiler (A's modes beyond the tiler are dropped, as in
// CuTe C++), n means n:_1, _ keeps the mode.
// @pre rank(tiler) <= rank(A)
Layout composition(const Layout& a, const Tiler& b);
// CuTe's composition without the post-condition check (its compile-time conditions still throw):
// for operations whose definitions do not include it (max_common_*, which only use its mode 0).
Layout composition_cute(const Layout& a, const Layout& b);
Layout composition_cute(const Layout& a, const Tiler& b);

// complement(L, cotarget): the layout of the offsets "between" L's, ordered, up to cotarget
// (CuTe detail::complement on filter(L): smallest stride first).
// @pre strides are static when filter(L) has rank > 1 ("Dynamic-stride complement only for
//      rank-1 layouts"); no static new shape is _0 ("Non-injective Layout detected in complement.")
// @post 1 cosize(make_layout(L, result)) >= size(cotarget)        (covers the cotarget)
// @post 3 result(i-1) < result(i)          @post 4 result(i) != L(j) for i >= 1   (ordered, disjoint)
// (CuTe's test also bounds @post 2 cosize(result) <= round_up(size(cotarget), cosize(L)); not required)
// Example: complement(_4:_2, _24) = (_2,_3):(_1,_8); complement((_4,_6):(_1,_6)) = _1:_0;
//          complement((3,6):(_1,_10)) = (3,1):(3,60)
Layout complement(const Layout& l, const IntTuple& cotarget);
// complement(L) = complement(L, cosize(filter(L))).
Layout complement(const Layout& l);
// CuTe's complement without the post-condition check (its compile-time conditions still throw):
// for domain_distribute, which only reads its size. (logical_divide and logical_product use the
// checked complement: their definitions need a true complement.)
Layout complement_cute(const Layout& l, const IntTuple& cotarget);

// right_inverse(L): with L coalesced, its modes with STATIC strides sorted by stride (CuTe's
// exchange sort), follow the strides up from _1 (a mode joins when its stride equals the span so
// far) and map back through the prefix products of L's shape; coalesced.
// @post L(R(i)) == i for i < size(R)
// Example: right_inverse((_4,_2):(_2,_1)) = (_2,_4):(_4,_1); right_inverse((_4,2):(_1,4)) = _4:_1
Layout right_inverse(const Layout& l);
// left_inverse(L): the quasi-inverse; the left inverse when L is injective. With L coalesced and
// its modes sorted by stride (static-_0 modes skipped), mode k of R has shape
// stride_k / size(R so far) and stride prefix_product_k; the last mode takes the shape of the
// largest-stride mode of L; coalesced.
// @pre all strides static ("Left inverse requires static strides."), each a multiple of the
//      size so far ("Left inverse divisibility condition")
// @post every mode of R has a positive size (a negative stride gives a negative one: refused)
// @post L(R(L(i))) == L(i) for i < size(L)
// Example: left_inverse((_4,_2):(_2,_1)) = (_2,_4):(_4,_1); left_inverse((_2,_2):(_1,_3)) = (_3,_2):(_1,_2)
Layout left_inverse(const Layout& l);

// max_common_layout(A, B): the layout R pointing at the largest number of contiguous elements that
// correspond in A and B: common = coalesce(composition(A, right_inverse(B))); when its mode 0 has a
// static shape and stride _1, R = composition(right_inverse(B), layout<0>(common)), else _1:_0.
// @post A(R(i)) == i and B(R(i)) == i for i < size(R)
// Example: max_common_layout((_4,_2):(_1,_4), (_4,_2):(_1,_4)) = _8:_1
Layout max_common_layout(const Layout& a, const Layout& b);
// max_common_vector(A, B): shape<0>(common) under the same condition, else _1.
// Example: max_common_vector((_8,_4):(_1,_8), (_8,_4):(_1,_16)) = _8
IntTuple max_common_vector(const Layout& a, const Layout& b);
// nullspace(L): the modes of flatten(L) with static stride _0, with the compact column-major
// strides of flatten(shape(L)); _1:_0 when there are none.
// @post L(R(i)) == 0 for i < size(R); size(R) == size(L) / size(filter(L))
// Example: nullspace((_2,_2,_2):(_1,_0,_2)) = _2:_2
Layout nullspace(const Layout& l);
// make_layout_like(L): L's shape with compact strides ordered like L's strides (static-_0 strides kept):
// make_layout(shape(L), compact_order(filter_zeros(stride(L), shape(L)), stride(L))).
// @post the modes without a static-_0 stride form a bijection onto [0, their size) ("compact")
// Example: make_layout_like((2,3,4,5):(_0,42,_1,_0)) = (2,3,4,5):(_0,4,_1,_0)
Layout make_layout_like(const Layout& l);
// domain_distribute(A, B): for each mode a of flatten(A), gcd(a, b) where b is what is left of
// size(B); strides compact column-major over flatten(A); coalesced.
// @pre A static and B a static integer (compile errors in CuTe)
// @post size(B) is a multiple of size(R), A is evenly divided by R, R is ordered
// Example: domain_distribute((_15,_14), _6) = (_3,_2):(_1,_15)
Layout domain_distribute(const IntTuple& a, const IntTuple& b);

// Swizzled layouts (AnyLayout) where CuTe's ComposedLayout overloads do more than act on the inner
// layout (those are model/layout/composed.hpp's with_inner):
// composition(A, B): A swizzled: Sw o off o composition(inner(A), B); A plain and B swizzled
// (offset _0): composition(composition(A, Sw_B), inner(B)) where composition(A, Sw) is
// make_swizzle<A(yyy_msk), A(zzz_msk)>() o A; a bare swizzle first: Sw o _0 o B.
// @post result(c) == A(B(c)) for every c in B's domain (CuTe: "Works in simple cases")
AnyLayout composition(const AnyLayout& a, const AnyLayout& b);
// right_inverse / left_inverse of Sw o _0 o L: composition(right_inverse(L), Sw) (resp. left).
// @post as for plain layouts, with L the swizzled layout
AnyLayout right_inverse(const AnyLayout& l);
AnyLayout left_inverse(const AnyLayout& l);
// CuTe's ComposedLayout<Layout, Offset, Swizzle>: x -> layout(offset + swizzle(x)), what CuTe's
// right_inverse / left_inverse of Sw o OFF o L return for a static OFF other than _0:
// composition(inverse(L), -OFF, Sw), printed `R o _-OFF o Sw<B,M,S>` (its domain is R's).
// @pre l swizzled with a static offset other than _0 (a run-time offset is CuTe's compile error)
// @post the inverse law of the operation, on the whole domain (checked)
// Example: left_inverse of Sw<3,4,5> o _16 o _8:_1 = _8:_1 o _-16 o Sw<3,4,5>
struct InverseWithOffset {
  Layout layout;
  i64 offset = 0;
  Swizzle swizzle;
};
InverseWithOffset inverse_with_offset(const AnyLayout& l, bool right);
i64 evaluate(const InverseWithOffset& r, i64 x);
std::string to_cute_string(const InverseWithOffset& r);

// The swizzled forms of max_common_*: the inner layout's, capped at 2^M (CuTe swizzle_layout.hpp).
AnyLayout max_common_layout(const AnyLayout& a, const AnyLayout& b);
IntTuple max_common_vector(const AnyLayout& a, const AnyLayout& b);
// composition(A, Sw) (CuTe swizzle_layout.hpp): make_swizzle<A(yyy_msk), A(zzz_msk)>() o _0 o A
// (A itself when that swizzle is Sw<0,..>). @pre A static.
// @post result(c) == A(Sw(c)) for c < size(A)
AnyLayout composition(const Layout& a, const Swizzle& sw);
// CuTe's make_swizzle<Y, Z>(): the swizzle whose yyy/zzz masks are Y and Z.
// make_swizzle(0b1000, 0b0100) = Sw<1,2,1>. Throws CuTe's static_assert texts when none exists.
Swizzle make_swizzle(i64 y, i64 z);

}  // namespace layoutproof
