#pragma once
// A proof of composition's definition "R(c) == A(B(c)) for every c < size(B)" that reads the three
// layouts' modes instead of evaluating every c: its cost is the number of leaves of A times the
// number of leaves of R, whatever size(B) is. check_composition (model/algebra/algebra_check.hpp)
// asks it first and enumerates only what it cannot show.
//
// Why it holds. Flatten A into mixed-radix digits, the last one unbounded as CuTe evaluates A past
// its domain: A(x) = sum_i a_i * digit_i(x), digit_i(x) = (x / P_i) mod S_i with P_i the product of
// the sizes below digit i (consecutive leaves with a_{k+1} == S_k * a_k form one digit, size-1 leaves
// none). Split c into R's leaf coordinates t_l < r_l: with B's leaf j = s_j:d_j over R's leaves l of
// that mode (Q_l the product of the earlier ones), B(c) = sum_l w_l * t_l with w_l = d_j * Q_l, and
// R(c) = sum_l e_l * t_l. When every leaf l of size > 1 has w_l == 0 and e_l == 0, or lies in one
// digit i (w_l = u_l * P_i, P_i <= w_l < P_{i+1}) with e_l == a_i * u_l, and the loads
// sum over l in digit i of u_l * (r_l - 1) stay below S_i for every digit but the last, then adding
// the terms never carries: digit_i(B(c)) = sum over l in i of u_l * t_l, so A(B(c)) = R(c) for all c.
//
// Example: A = (8,4):(1,100), B = (2,4):(1,2), R = (2,4):(1,2): w = 1 and 2 both lie in digit 0
// (S = 8, a = 1), loads 1 + 2 * 3 = 7 < 8: proved. The hostile A = (12,2):(1,100), B = (3,2,4096):(3,6,0),
// R = (3,2,4096):(3,6,0): loads 2 * 3 + 1 * 6 = 12, not below 12 (B(5) = 12 carries into A's second
// mode): not proved, and enumeration finds R(5) = 12 != A(12) = 100.
#include "model/layout/layout.hpp"

namespace layoutproof {

// True only when R(c) == A(B(c)) for every c < size(B) and evaluating both sides for every c, as
// check_composition's enumeration does, stays within 64 bits. False means "not shown" (the result may
// still be right): negative or basis strides of B, basis strides anywhere, a mode of A of size < 1,
// a leaf that crosses a digit, a carry, or an overflow.
// @pre compatible(shape(B), shape(R)) (checked: false otherwise)
// @post true implies R(c) == A(B(c)) for c < size(B), the last mode of A unbounded (the CuTe way)
// Example: composition_holds_by_digits((8,4):(1,100), (2,4):(1,2), (2,4):(1,2)) == true
//          composition_holds_by_digits((8,4):(1,100), (2,4):(1,2), (2,4):(1,3)) == false
[[nodiscard]] bool composition_holds_by_digits(const Layout& a, const Layout& b, const Layout& r);

}  // namespace layoutproof
