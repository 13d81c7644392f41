#pragma once
// Swizzled layouts: Sw<B,M,S> o OFFSET o LAYOUT (CuTe ComposedLayout<Swizzle, Offset, Layout>),
// the map c -> Sw(OFFSET + LAYOUT(c)). Shape, size, rank and depth are LAYOUT's.
//
// AnyLayout holds either a plain Layout or a swizzled one; the CLI, proofs and reports take it.
// Operations that act on the domain (composition with a tiler, divides, products, coalesce) act on
// the inner LAYOUT and keep the swizzle and offset, as CuTe's layout_composed.hpp does.
#include <optional>
#include <vector>

#include "model/layout.hpp"
#include "model/swizzle.hpp"

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
// elements (CuTe's recast_layout<uint8_t, uint_bit_t<elem_bits>>(byte_sw)).
// Definition: element e lies at bit e*elem_bits, byte floor(e*elem_bits/8). With k = log2(elem_bits/8):
//   elem_bits >= 8: byte_sw(e * 2^k) = element_swizzle(e) * 2^k when M >= k, so M' = M - k;
//                   with M < k the swizzle would move bytes inside an element (misaligned): rejected.
//   elem_bits <  8: 8/elem_bits elements share a byte and move with it: M' = M + log2(8/elem_bits).
// Example: element_swizzle(Sw<3,4,3>, 16) = Sw<3,3,3> (GMMA K_SW128 on half); (Sw<3,4,3>, 4) = Sw<3,5,3>.
// @pre elem_bits is a power of two in [1, 1024]
Swizzle element_swizzle(const Swizzle& byte_sw, int elem_bits);

// L(x) = Sw(offset + inner(x)) for an index or coordinate x.
i64 evaluate(const AnyLayout& l, const IntTuple& coord_or_index);
// The offsets for indices 0..size-1.
std::vector<i64> offsets(const AnyLayout& l);
// cosize: as CuTe's cosize(ComposedLayout), the cosize of the inner layout (the swizzle permutes
// offsets inside aligned blocks; the proofs layer reports the swizzled image separately).
i64 cosize(const AnyLayout& l);

}  // namespace layoutproof
