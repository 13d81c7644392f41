#pragma once
// Swizzled layouts: Sw<B,M,S> o OFFSET o LAYOUT (CuTe ComposedLayout<Swizzle, Offset, Layout>),
// the map c -> Sw(OFFSET + LAYOUT(c)). Shape, size, rank and depth are LAYOUT's.
//
// AnyLayout holds either a plain Layout or a swizzled one; the CLI, proofs and reports take it.
// Operations that act on the domain (composition with a tiler, divides, products, coalesce) act on
// the inner LAYOUT and keep the swizzle and offset, as CuTe's layout_composed.hpp does.
#include <optional>
#include <string>
#include <vector>

#include "model/layout/layout.hpp"
#include "model/layout/swizzle.hpp"

namespace layoutproof {

struct AnyLayout {
  // Empty: a plain layout. Otherwise the swizzle that evaluation applies to ELEMENT offsets:
  // L(x) = swizzle(offset + layout(x)), also for the smem_ptr form below (where it is derived).
  std::optional<Swizzle> swizzle;
  i64 offset = 0;
  bool offset_is_static = true;  // CuTe's _0 (static) or a run-time 0: printing only
  // > 0: CuTe's `Sw<B,M,S> o smem_ptr[Nb](unset) o L` (smem_ptr_flag_bits<N>): byte_swizzle acts
  // on the BYTE addresses of N-bit elements and `swizzle` holds its element-level equivalent
  // (element_swizzle below), so every consumer of `swizzle` evaluates it correctly.
  int smem_ptr_bits = 0;
  Swizzle byte_swizzle{};        // smem_ptr form only: the swizzle as written, on byte addresses
  // false only for an smem_ptr form whose swizzle moves bytes inside an element (no element-level
  // swizzle exists): made only on request (smem_ptr(..., true)) for the algebra, which prints it
  // without evaluating it; evaluate, offsets and to_flat throw for it.
  bool evaluable = true;
  Layout layout;

  AnyLayout() = default;
  AnyLayout(Layout l) : layout(std::move(l)) {}  // NOLINT: a plain layout is an AnyLayout
  AnyLayout(Swizzle sw, i64 off, Layout l) : swizzle(sw), offset(off), layout(std::move(l)) {}
  // CuTe's composition(Sw, smem_ptr_flag_bits<elem_bits>{}, l): the swizzle on byte addresses.
  // Throws LayoutError when no element-level swizzle is equivalent (see element_swizzle), unless
  // allow_unevaluable: then the result is not `evaluable` (and `swizzle` holds byte_sw, unusable).
  static AnyLayout smem_ptr(Swizzle byte_sw, int elem_bits, Layout l, bool allow_unevaluable = false);

  bool is_swizzled() const { return swizzle.has_value(); }
  bool is_smem_ptr() const { return smem_ptr_bits > 0; }
  // The same swizzle and offset around another inner layout.
  AnyLayout with_inner(Layout l) const {
    AnyLayout r = *this;
    r.layout = std::move(l);
    return r;
  }
};

// The element-level swizzle equivalent to byte_sw acting on the byte addresses of elem_bits-bit
// elements: CuTe's recast_layout<uint8_t, uint_bit_t<elem_bits>>(byte_sw) (swizzle_layout.hpp),
// accepted only where every byte of every element stays with its element.
// Definition: element e lies at bit e*elem_bits, byte floor(e*elem_bits/8).
//   elem_bits <  8: downcast: 8/elem_bits elements share a byte and move with it:
//                   Sw<B, M + log2(8/elem_bits), S>.
//   elem_bits >= 8: upcast<2^k>, k = log2(elem_bits/8): Sw<B, M-k, S> when M >= k (or B == 0).
//                   With M < k (B > 0) CuTe returns Sw<max(B+M-k,0), 0, S>, dropping the bit pairs
//                   below k, but byte_sw moves bytes of an element: its bit pair 0 has a bit below
//                   k (S > 0: an element's first byte moves inside it; S < 0: an element's inner
//                   byte goes to another element; both below k: an element's bytes are permuted).
//                   LayoutError naming the address bits and the bytes that move.
// Example: element_swizzle(Sw<3,4,3>, 16) = Sw<3,3,3> (GMMA K_SW128 on half); (Sw<3,4,3>, 4) = Sw<3,5,3>;
//          (Sw<3,2,3>, 64) throws: byte-address bit 5 flips bit 2, byte 32 (element 4's byte 0) goes
//          to byte 36; (Sw<1,1,-2>, 32) throws: bit 1 flips bit 3, byte 2 (element 0's byte 2) goes
//          to byte 10 (element 2's byte 2), although CuTe's Sw<0,0,-2> maps element starts alike.
// @pre elem_bits is a power of two in [1, 1024]
Swizzle element_swizzle(const Swizzle& byte_sw, int elem_bits);

// CuTe's upcast<n>(sw) (swizzle_layout.hpp) under the rule above for n-unit elements: Sw<B, M-log2(n), S>;
// with M < log2(n) and B > 0 refused (LayoutError naming the bits and the units moved, each called
// `unit`: "byte", or "offset" when empty). element_swizzle(sw, 8*n) == upcast_swizzle_checked(sw, n, "byte").
// Example: upcast_swizzle_checked(Sw<3,4,3>, 2) = Sw<3,3,3>; upcast_swizzle_checked(Sw<0,1,3>, 4) = Sw<0,0,3>.
Swizzle upcast_swizzle_checked(const Swizzle& sw, i64 n, const std::string& unit = "");

// The ABSOLUTE bit address at which a kernel reads element x of a buffer of elem_bits-bit
// elements that starts at shared-memory byte `base`:
//   smem_ptr form: 8*byte_sw(base + floor(b/8)) + b mod 8, b = inner(x)*elem_bits: CuTe's
//                  swizzle_ptr swizzles the absolute address (so does TMA), whatever the base;
//   otherwise:     8*base + L(x)*elem_bits (an element-unit layout is relative to the base).
// At a base aligned to 2^span_bits(byte_sw) both readings agree. Works for an smem_ptr form that
// is not `evaluable` too. Throws LayoutError when the smem_ptr form's element width is not
// elem_bits. Example: Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1) at base 128, x = 0:
// byte_sw(128) = 128 ^ (1<<4) = 144, bit 1152 (the element-unit Sw<3,3,3> o (8,64):(64,1) gives 128).
i64 absolute_bit_address(const AnyLayout& l, const IntTuple& coord_or_index, int elem_bits, i64 base);

// L(x) = Sw(offset + inner(x)) for an index or coordinate x.
i64 evaluate(const AnyLayout& l, const IntTuple& coord_or_index);
// The offsets for indices 0..size-1.
std::vector<i64> offsets(const AnyLayout& l);
// cosize: as CuTe's cosize(ComposedLayout), the cosize of the inner layout (the swizzle permutes
// offsets inside aligned blocks; the proofs layer reports the swizzled image separately).
i64 cosize(const AnyLayout& l);

}  // namespace layoutproof
