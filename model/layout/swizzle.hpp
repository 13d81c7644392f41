#pragma once
// Swizzle<B,M,S> (CuTe swizzle.hpp): XOR B bits of an offset, taken S bits above bit M, into the
// B bits starting at bit M.
//
//   bit_msk = 2^B - 1
//   yyy_msk = bit_msk << (M + max(0,S))      the bits read
//   zzz_msk = bit_msk << (M - min(0,S))      the bits written
//   apply(x) = x ^ shiftr(x & yyy_msk, S)    (a negative S shifts left)
//
// @pre B >= 0, M >= 0, |S| >= B, as CuTe requires (checked by validate()). With |S| < B the bits
//      read and written overlap: the map is no longer an involution (Sw<2,0,1>(4) = 6 but
//      Sw<2,0,1>(6) = 5), and with S = 0 it is not even injective (Sw<1,0,0> maps 0 and 1 to 0).
// @post apply is an involution: apply(apply(x)) == x.
// Example: Sw<3,4,3>(0x3a0) = 0x3a0 ^ ((0x3a0 & 0x380) >> 3) = 0x3a0 ^ 0x70 = 0x3d0.
#include <cstdint>
#include <string>

#include "model/support/error.hpp"
#include "model/support/host_device.hpp"

namespace layoutproof {

struct Swizzle {
  int B = 0;
  int M = 0;
  int S = 0;

  LAYOUTPROOF_HOST_DEVICE constexpr int abs_s() const { return S < 0 ? -S : S; }
  LAYOUTPROOF_HOST_DEVICE constexpr std::int64_t bit_msk() const { return (std::int64_t{1} << B) - 1; }
  LAYOUTPROOF_HOST_DEVICE constexpr std::int64_t yyy_msk() const { return bit_msk() << (M + (S > 0 ? S : 0)); }
  LAYOUTPROOF_HOST_DEVICE constexpr std::int64_t zzz_msk() const { return bit_msk() << (M - (S < 0 ? S : 0)); }
  // The number of low offset bits the swizzle reads or writes: M + B + |S|.
  LAYOUTPROOF_HOST_DEVICE constexpr int span_bits() const { return M + B + abs_s(); }

  LAYOUTPROOF_HOST_DEVICE constexpr std::int64_t apply(std::int64_t x) const {
    const std::int64_t y = x & yyy_msk();
    return x ^ (S >= 0 ? (y >> S) : (y << -S));
  }
  LAYOUTPROOF_HOST_DEVICE constexpr std::int64_t operator()(std::int64_t x) const { return apply(x); }

  // Throws LayoutError unless B >= 0, M >= 0, |S| >= B and the masks fit in 62 bits.
  void validate() const {
    if (B < 0 || M < 0) throw LayoutError("Sw<B,M,S> needs B >= 0 and M >= 0");
    if (abs_s() < B)
      throw LayoutError("Sw<" + std::to_string(B) + "," + std::to_string(M) + "," + std::to_string(S) +
                        "> needs |S| >= B (CuTe's condition): the bits read and written overlap, so it is not an involution");
    if (span_bits() > 62) throw LayoutError("Sw<B,M,S> with M+B+|S| > 62 does not fit 64-bit offsets");
  }
  bool operator==(const Swizzle& o) const { return B == o.B && M == o.M && S == o.S; }
};

}  // namespace layoutproof
