#pragma once
// Nested integer tuples: the shapes, strides and coordinates of CuTe layouts.
//
// An IntTuple is either an integer (a leaf) or a tuple of IntTuples, e.g. ((2,3),4).
// All arithmetic is 64-bit and checked (model/checked.hpp).
#include <cstddef>
#include <initializer_list>
#include <vector>

#include "model/checked.hpp"

namespace layoutproof {

class IntTuple {
 public:
  // A leaf holding v.
  IntTuple(i64 v = 0) : leaf_(true), value_(v) {}  // NOLINT: implicit on purpose, like CuTe's Int
  // A tuple of the given children (a 1-tuple stays a tuple: (4) != 4).
  static IntTuple tuple(std::vector<IntTuple> children);
  static IntTuple tuple(std::initializer_list<IntTuple> children);

  bool is_leaf() const { return leaf_; }
  bool is_tuple() const { return !leaf_; }
  i64 value() const;                                // @pre is_leaf()
  const std::vector<IntTuple>& children() const;    // @pre is_tuple()

  // rank: 1 for a leaf, the number of children for a tuple.
  std::size_t rank() const { return leaf_ ? 1 : children_.size(); }
  // get<i>: the i-th child; as in CuTe, get<0> of a leaf is the leaf itself.
  const IntTuple& operator[](std::size_t i) const;

  friend bool operator==(const IntTuple& a, const IntTuple& b);
  friend bool operator!=(const IntTuple& a, const IntTuple& b) { return !(a == b); }

 private:
  bool leaf_;
  i64 value_;
  std::vector<IntTuple> children_;
};

// product: the product of all leaves; product(4) = 4, product(((2,3),4)) = 24.
i64 product(const IntTuple& t);
// depth: 0 for a leaf, 1 + the largest child depth for a tuple; depth(((2,3),4)) = 2.
int depth(const IntTuple& t);
// The leaves in order (colexicographic modes first): leaves(((2,3),4)) = [2,3,4].
std::vector<i64> leaves(const IntTuple& t);
// flatten: a leaf stays a leaf; a tuple becomes the tuple of its leaves. flatten(((2,3),4)) = (2,3,4).
IntTuple flatten(const IntTuple& t);
// congruent: a and b have the same hierarchical profile.
bool congruent(const IntTuple& a, const IntTuple& b);
// An IntTuple congruent to t with every leaf replaced by f(leaf).
template <class F>
IntTuple transform_leaves(const IntTuple& t, F&& f) {
  if (t.is_leaf()) return IntTuple(f(t.value()));
  std::vector<IntTuple> out;
  out.reserve(t.rank());
  for (const auto& c : t.children()) out.push_back(transform_leaves(c, f));
  return IntTuple::tuple(std::move(out));
}

// shape_div(a, b) (CuTe int_tuple.hpp): a / b when that is non-zero, else signum(a)*signum(b);
// tuple/int folds b through the modes of a.
// @pre for integers, a % b == 0 or b % a == 0 (CuTe's "Static shape_div failure");
//      violations throw LayoutError whose text starts with `what`.
IntTuple shape_div(const IntTuple& a, const IntTuple& b, const char* what = "shape_div");
i64 shape_div(i64 a, i64 b, const char* what = "shape_div");
// ceil_div(a, b): (a + b - 1) / b; tuple/int folds b through the modes of a, so
// ceil_div((4,6), 3) = (2,6) (CuTe int_tuple.hpp).
IntTuple ceil_div(const IntTuple& a, i64 b);
// shape_min(a, b): 1 if either is 1, else min(a, b).
i64 shape_min(i64 a, i64 b);
// elem_scale(a, b): a tuple scales mode-wise, a leaf scales by product(b).
IntTuple elem_scale(const IntTuple& a, const IntTuple& b);
// compact_col_major(shape, current): the generalized column-major strides of shape starting at
// current; a mode of size 1 gets stride 0 (CuTe stride.hpp). compact_col_major((2,1,3)) = (1,0,2).
IntTuple compact_col_major(const IntTuple& shape, i64 current = 1);

}  // namespace layoutproof
