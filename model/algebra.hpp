#pragma once
// The CuTe layout algebra (CuTe layout.hpp, CUTLASS 4.x semantics, static integers).
//
// Each operation returns exactly the layout CuTe C++ returns, structure included, or throws
// LayoutError naming the violated condition where CuTe would fail to compile or would silently
// return a layout that breaks the operation's definition.
#include "model/layout.hpp"
#include "model/tiler.hpp"

namespace layoutproof {

// coalesce(L): merge adjacent modes s0:d0, s1:d1 with d1 == s0*d0, drop size-1 modes.
// @post depth(result) <= 1, size(result) == size(L), result(i) == L(i) for i < size(L)
// @post a single remaining mode is an integer layout; nothing left gives 1:0
// Example: coalesce((2,(1,6)):(1,(6,2))) = 12:1
Layout coalesce(const Layout& l);
// coalesce(L, profile): coalesce applied at the terminals of profile; modes past rank(profile)
// are kept. coalesce((2,(1,6)):(1,(6,2)), (1,1)) = (2,6):(1,2)
// @pre rank(profile) <= rank(L) when profile is a tuple
Layout coalesce(const Layout& l, const IntTuple& profile);
// coalesce_x(L): like coalesce but also keeps the function outside the domain (a trailing size-1
// mode keeps its stride). coalesce_x((4,1):(1,0)) = (4,2):(1,0)
Layout coalesce_x(const Layout& l);
// filter_zeros(L): the shape of every stride-0 mode becomes 1.
Layout filter_zeros(const Layout& l);
// filter(L) = coalesce(filter_zeros(L)): drop stride-0 and size-1 modes.
Layout filter(const Layout& l);

// composition(A, B) = A o B.
// @post compatible(B, result): result has B's profile (each mode of B composed on its own)
// @post result(c) == A(B(c)) for every c in B's domain (checked exhaustively on small domains)
// @pre every shape_div of CuTe's algorithm is exact ("stride ... and shape ... do not divide each
//      other" otherwise); CuTe 4.x silently returns wrong layouts here, layoutproof refuses.
// Example: composition((8,32):(32,1), (4,8):(1,32)) ... (16,2):(1,16) o ... see tests.
Layout composition(const Layout& a, const Layout& b);
// composition(A, tiler): by-mode for a tuple tiler (A's modes beyond the tiler are dropped, as in
// CuTe C++), n means n:1, _ keeps the mode.
// @pre rank(tiler) <= rank(A)
Layout composition(const Layout& a, const Tiler& b);

// complement(L, cotarget): the layout of the offsets "between" L's, ordered, up to cotarget.
// @pre L is injective and, after sorting its modes by stride, each stride is divisible by the
//      previous mode's shape*stride (else LayoutError)
// @post result(i) is increasing and disjoint from L's image for i >= 1
// @post size(result) >= cotarget / size(filter(L))
// Example: complement(4:2, 24) = (2,3):(1,8)
Layout complement(const Layout& l, const IntTuple& cotarget);
// complement(L) = complement(L, cosize(filter(L))).
Layout complement(const Layout& l);

// right_inverse(L) (CuTe 4.x): with L coalesced and its modes sorted by stride, follow the
// strides up from 1 (a mode joins when its stride equals the span so far) and map back through
// the prefix products of L's shape; coalesced. Negative and 0 strides never join.
// @post L(R(i)) == i for i < size(R) (checked on small domains)
// Example: right_inverse((4,2):(2,1)) = (2,4):(4,1); right_inverse((2,4):(0,1)) = 4:2
Layout right_inverse(const Layout& l);
// left_inverse(L) (CuTe 4.x): the quasi-inverse; the left inverse when L is injective.
// With L's modes sorted by stride (stride-0 modes skipped), mode k of R has shape
// stride_k / (size of the earlier modes of R) and stride prefix_product_k; the last mode takes
// the shape of the largest-stride mode of L; coalesced.
// @pre each stride is a multiple of the span of the smaller ones ("Left inverse divisibility
//      condition"), strides are non-negative
// @post L(R(L(i))) == L(i) for i < size(L); R(L(i)) == i when L is injective
// Example: left_inverse((4,2):(2,1)) = (2,4):(4,1); left_inverse((2,2):(1,3)) = (3,2):(1,2)
Layout left_inverse(const Layout& l);

}  // namespace layoutproof
