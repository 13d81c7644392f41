#pragma once
// upcast<N>: view a layout of small elements as a layout of N-times larger ones (CuTe layout.hpp,
// CUTLASS 4.x), e.g. a 4-bit-element atom as a byte atom, so byte-granular checks (vectors,
// banks) apply to sub-byte types.
//
//   static stride d != 0:  shape' = ceil_div(shape, ceil_div(N, |d|)),  stride' = signum(d) * ceil_div(|d|, N)
//   stride 0:              unchanged
//   Swizzle<B,M,S>:        Swizzle<B, M - log2(N), S>        (the swizzle acts on N-times coarser offsets);
//                          M < log2(N) (B > 0): refused, naming the offsets that move inside a
//                          coarse element (upcast_swizzle_checked, model/layout/composed.hpp)
//   offset:                offset / N
// @pre each nonzero stride d satisfies d % N == 0 or N % d == 0 (CuTe's "Divisibility condition");
//      N is a power of two; a swizzle's offset is a multiple of N (LayoutError otherwise).
// Example: upcast<2>(Sw<3,5,3> o 0 o (8,256):(256,1)) = Sw<3,4,3> o 0 o (8,128):(128,1)
#include "model/layout/composed.hpp"

namespace layoutproof {

Layout upcast(const Layout& l, i64 n);
AnyLayout upcast(const AnyLayout& l, i64 n);

}  // namespace layoutproof
