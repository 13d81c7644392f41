#pragma once
// A proof of the complement's conditions (3) "R(i-1) < R(i)" (ordered) and (4) "R(i) != L(j) for
// i >= 1" (disjoint) that reads the layouts' strides instead of their offsets: its cost is a sort of
// their leaves, whatever size(R) and size(L) are. check_complement (model/algebra/algebra_check.hpp)
// asks it before enumerating, and enumerates only what it cannot show.
//
// Why it holds. Only leaves of size > 1 move an offset. (3): stepping from i-1 to i raises one leaf k
// of R by one and resets the leaves before it from their last value to 0, so R is ordered exactly
// when every e_k > sum over m < k of (r_m - 1) * e_m. (4): put L's leaves of non-zero stride with
// R's and sort them by stride; when every stride exceeds the largest sum the smaller ones reach
// (all strides positive), distinct coordinates give distinct offsets, so an R(i) with some leaf of R
// non-zero is no L(j), whose leaves of R are all 0.
//
// Example: complement(_4:_2, _24) = (_2,_3):(_1,_8): R ordered (8 > 1 * 1); with L's 4:2 the sorted
// strides 1, 2, 8 each exceed 0, 1 * 1 = 1 and 1 + 3 * 2 = 7: proved. R = (2,3):(1,2) is ordered
// (2 > 1) but meets L at R(2) = 2 = L(1): in the sorted 1, 2 (L's), 2 (R's) the last is not above
// 1 + 3 * 2 = 7.
#include "model/layout/layout.hpp"

namespace layoutproof {

// True only when (3) and (4) hold for R and L and enumerating both layouts' offsets, as
// check_complement does, stays within 64 bits. False means "not shown" (the conditions may still
// hold): a negative stride in L, a basis stride, a mode of size < 1, a near miss of either
// inequality, or an overflow.
// @post true implies R(i-1) < R(i) for 0 < i < size(R), and R(i) != L(j) for 1 <= i < size(R), j < size(L)
// Example: complement_holds_by_strides(_4:_2, (_2,_3):(_1,_8)) == true
//          complement_holds_by_strides(_4:_2, (2,3):(1,2)) == false
[[nodiscard]] bool complement_holds_by_strides(const Layout& l, const Layout& r);

}  // namespace layoutproof
