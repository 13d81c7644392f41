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
  std::optional<Swizzle> swizzle;  // empty: a plain layout
  i64 offset = 0;
  Layout layout;

  AnyLayout() = default;
  AnyLayout(Layout l) : layout(std::move(l)) {}  // NOLINT: a plain layout is an AnyLayout
  AnyLayout(Swizzle sw, i64 off, Layout l) : swizzle(sw), offset(off), layout(std::move(l)) {}

  bool is_swizzled() const { return swizzle.has_value(); }
  // The same swizzle and offset around another inner layout.
  AnyLayout with_inner(Layout l) const {
    AnyLayout r = *this;
    r.layout = std::move(l);
    return r;
  }
};

// L(x) = Sw(offset + inner(x)) for an index or coordinate x.
i64 evaluate(const AnyLayout& l, const IntTuple& coord_or_index);
// The offsets for indices 0..size-1.
std::vector<i64> offsets(const AnyLayout& l);
// cosize: as CuTe's cosize(ComposedLayout), the cosize of the inner layout (the swizzle permutes
// offsets inside aligned blocks; the proofs layer reports the swizzled image separately).
i64 cosize(const AnyLayout& l);

}  // namespace layoutproof
