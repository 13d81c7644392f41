#pragma once
// Layout = Shape:Stride, a function from coordinates (or indices) to offsets (CuTe layout.hpp).
//
// Example: (4,(2,2)):(2,(1,8)) maps index 5 -> coordinate (1,(1,0)) -> offset 1*2 + 1*1 = 3.
#include <vector>

#include "model/layout/int_tuple.hpp"

namespace layoutproof {

struct Layout {
  IntTuple shape;
  IntTuple stride;

  Layout() : shape(1), stride(0) {}
  // @pre congruent(shape, stride) (checked: throws LayoutError).
  Layout(IntTuple shape_, IntTuple stride_);

  // The flat layout with these modes: an integer layout for one mode, else a flat tuple.
  // @pre shape.size() == stride.size() >= 1
  static Layout flat(const std::vector<i64>& shape, const std::vector<i64>& stride);

  // make_layout(L0, L1, ...): the layout whose modes are the given layouts; one argument gives a
  // 1-tuple, as in CuTe: make_layout(8:1) = (8):(1).
  static Layout concat(const std::vector<Layout>& modes);

  // rank: number of top-level modes (1 for an integer shape).
  std::size_t rank() const { return shape.rank(); }
  // mode(i) = get<i>(layout); mode(0) of an integer-shaped layout is the layout itself.
  Layout mode(std::size_t i) const { return Layout(shape[i], stride[i]); }
  bool operator==(const Layout& o) const { return shape == o.shape && stride == o.stride; }
  bool operator!=(const Layout& o) const { return !(*this == o); }
};

// A layout exactly as an operation built it: congruent, but shapes are not checked to be positive
// (CuTe's run-time arithmetic can build a 0 or negative shape; the operation's definition check
// then rejects it).
Layout raw_layout(IntTuple shape, IntTuple stride);
// make_layout(L0, L1, ...) without the positivity check (one argument gives a 1-tuple).
Layout concat_layouts(const std::vector<Layout>& modes);
// CuTe's make_layout(shape): compact column-major strides with CuTe's staticness:
// make_compact_layout((_2,4,_3)) = (_2,4,_3):(_1,_2,8), make_compact_layout(_1) = _1:_0.
Layout make_compact_layout(const IntTuple& shape);
// CuTe's size and cosize with staticness: size (_2,4):(_1,_2) = 8 (dynamic), cosize = 8;
// cosize = inner_product(shape - _1, |stride|) + _1 (a static _1 mode contributes a static _0).
IntTuple size_cute(const Layout& l);
IntTuple cosize_cute(const Layout& l);
// L(x) when strides may be basis elements (CuTe's ScaledBasis): the arithmetic-tuple sum of the
// terms coordinate * stride. An integer leaf for integer strides; for basis strides a tuple with
// zeros where no basis points: (_4,_4):(_1@1,_1@0) at 6 = (1,2), 2:(_1@1) at 1 = (0,1).
IntTuple evaluate_coord(const Layout& l, const IntTuple& coord_or_index);
// L(x) with CuTe's staticness (crd2idx in stride.hpp): a static result only where CuTe computes it
// at compile time, e.g. 6:_1 at _3 is _3 although 6 is a run-time shape; (6,_5):(_1,_18) at _3 is
// dynamic (it divides by the run-time 6). Integer strides only.
IntTuple evaluate_cute(const Layout& l, const IntTuple& coord_or_index);
// Equality of two evaluate_coord values, missing trailing modes counting as 0 (CuTe pads
// arithmetic tuples with _0 when it adds them): (3,0) equals (3), 0 equals (0,(0,0)).
bool same_coord(const IntTuple& a, const IntTuple& b);

// size(L) = product(shape).                               size((4,(2,2)):(2,(1,8))) = 16
i64 size(const Layout& l);
// rank(L), depth(L) of the shape.                         depth((4,(2,2)):(2,(1,8))) = 2
int depth(const Layout& l);
// cosize(L) = |L|(size(L)-1) + 1, with |L| the layout with absolute strides (CuTe coshape).
//                                                          cosize((4,(2,2)):(2,(1,8))) = 16
i64 cosize(const Layout& l);

// crd2idx(c, shape, stride) (CuTe stride.hpp):
//   int c, int shape           -> c * stride
//   int c, tuple shape         -> crd2idx(c % size(s0), s0, d0) + crd2idx(c / size(s0), rest...);
//                                 the last mode takes the remaining quotient unreduced
//   tuple c, tuple shape       -> sum of crd2idx(c_i, s_i, d_i), @pre rank(c) == rank(shape)
i64 crd2idx(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride);
// crd2idx(c, shape): colexicographic index, i = c0 + s0*(c1 + s1*(...)) after flattening c and
// the products of shape that match c's profile. crd2idx((1,2), (4,(2,2))) = 9.
i64 crd2idx(const IntTuple& coord, const IntTuple& shape);
// idx2crd(i, shape, stride): each leaf gets (i / d) % s (0 for a size-1 mode); a non-tuple stride
// means the compact col-major strides starting there. idx2crd(5, (4,4), (1,4)) = (1,1).
IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape, const IntTuple& stride);
// idx2crd(i, shape): colexicographic split where the last mode takes the remaining quotient
// (CuTe 4.x: crd2idx with basis strides). idx2crd(20, (4,4)) = (0,5).
IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape);

// L(i) for an index or L(c) for a (possibly partial, CuTe-style) coordinate.
i64 evaluate(const Layout& l, const IntTuple& coord_or_index);
inline i64 evaluate(const Layout& l, i64 index) { return evaluate(l, IntTuple(index)); }

// Calls f(i, L(i)) for i = 0, 1, ..., size-1 in order, stopping early when f returns false.
// Streams (no storage), so it serves domains far larger than memory; each step is an odometer
// increment over the flattened modes.
template <class F>
void for_each_offset(const Layout& l, F&& f) {
  const std::vector<i64> s = leaves(l.shape), d = leaves(l.stride);
  std::vector<i64> coord(s.size(), 0);
  const i64 n = product(l.shape);
  i64 offset = 0;
  for (i64 i = 0; i < n; ++i) {
    if (!f(i, offset)) return;
    for (std::size_t m = 0; m < s.size(); ++m) {
      if (++coord[m] < s[m]) {
        offset = checked_add(offset, d[m]);
        break;
      }
      offset = checked_sub(offset, checked_mul(coord[m] - 1, d[m]));
      coord[m] = 0;
    }
  }
}

// The offsets L(0), ..., L(size-1).
std::vector<i64> offsets(const Layout& l);

}  // namespace layoutproof
