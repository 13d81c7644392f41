#pragma once
// The definition checks of the layout algebra: each operation returns CuTe's result only when that
// result meets the operation's definition (the post-conditions CuTe's own unit tests check), and
// otherwise throws LayoutError naming the broken condition. Used by model/algebra*.cpp and
// model/algebra/tiling.cpp; the conditions, as in CUTLASS test/unit/cute/core:
//
//   composition R = A o B   "compatible(B, R)": R has B's profile, mode sizes equal;
//                           "R(c) == A(B(c))" for every c < size(B) (A and R evaluated past their
//                           domain the CuTe way: the last mode unbounded).
//   complement R of L, cotarget T   (1) "cosize(make_layout(L, R)) >= size(T)" (covers the cotarget)
//                           (3) "R(i-1) < R(i)" (ordered)   (4) "R(i) != L(j)" for i >= 1 (disjoint)
//                           (CuTe's test also bounds (2) cosize(R) <= round_up(size(T), cosize(L)); that is
//                           a tightness hint, not part of the definition: complement((2,4):(12,1), 32) =
//                           (_3,_2):(_4,_24) fills every gap, ordered and disjoint, with cosize 33 > 32)
//   right_inverse R of L    "L(R(i)) == i" for i < size(R)
//   left_inverse R of L     "L(R(L(i))) == L(i)" for i < size(L)
//   every result            "every mode has a positive size" (CuTe's run-time arithmetic can make a 0;
//                           a negative stride makes left_inverse's first mode negative: (_4):(_-1) -> (_-1,_4):(_0,_1))
//
// Cost: each check first tries to show its condition from the layouts' modes, at a cost of their
// leaves whatever the domain's size, and enumerates the domain only where that does not show it:
// "R(c) == A(B(c))" on A's digits (model/algebra/composition_digits.hpp), the inverses as the
// compositions L o R == identity and R o L == identity on the same digits, (3) and (4) of the
// complement on sorted strides (model/algebra/complement_strides.hpp). `exact` says CuTe's algorithm only ever divided exactly (its
// theory then proves the result; for composition only when B has one mode of size > 1 or A is
// linear); such results are checked when small (<= 2^12 elements) as a guard. Any other result is
// checked up to 2^22 elements and refused beyond that ("cannot verify").
#include "model/layout/layout.hpp"

namespace layoutproof {

inline constexpr i64 kAlwaysCheck = i64{1} << 12;
inline constexpr i64 kCheckLimit = i64{1} << 22;

// Throws unless every shape of r is positive; `what` prefixes the message.
void check_positive_shapes(const Layout& r, const std::string& what);
// CuTe's compatible(a, b) on shapes: a tuple needs a tuple of the same rank, mode by mode; an
// integer a needs a == size(b).
bool compatible(const IntTuple& a, const IntTuple& b);

void check_composition(const Layout& a, const Layout& b, const Layout& r, bool exact);
void check_complement(const Layout& l, const IntTuple& cotarget, const Layout& r, bool exact);
void check_right_inverse(const Layout& l, const Layout& r);
void check_left_inverse(const Layout& l, const Layout& r);

}  // namespace layoutproof
