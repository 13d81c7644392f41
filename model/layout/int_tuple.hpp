#pragma once
// Nested integer tuples: the shapes, strides and coordinates of CuTe layouts.
//
// An IntTuple is either an integer (a leaf) or a tuple of IntTuples, e.g. ((2,3),4).
// All arithmetic is 64-bit and checked (model/support/checked.hpp).
//
// Leaves are STATIC (compile-time, CuTe's `_8`) or DYNAMIC (run-time, CuTe's `8`); the distinction
// changes the structure of CuTe's results (coalesce never merges a dynamic mode, right_inverse drops
// dynamic strides, ...), never a layout's values. A leaf may also be a basis stride `_1@0`
// (CuTe's ScaledBasis, as in make_identity_layout). The CuTe-exact integer arithmetic on leaves
// (which results stay static) is model/layout/cute_int.hpp.
#include <cstddef>
#include <initializer_list>
#include <vector>

#include "model/support/checked.hpp"

namespace layoutproof {

class IntTuple {
 public:
  // A leaf holding v, STATIC (CuTe's Int<v>, printed `_v` by to_cute_string). Existing code that builds
  // IntTuples from plain integers keeps meaning what it always meant: compile-time constants.
  IntTuple(i64 v = 0) : leaf_(true), static_(true), value_(v) {}  // NOLINT: implicit on purpose, like CuTe's Int
  // A leaf holding v, DYNAMIC (a run-time int in CuTe; printed `v`). dynamic(8) == IntTuple(8) compares
  // equal (operator== ignores staticness); identical() tells them apart.
  static IntTuple dynamic(i64 v);
  // A leaf holding v, static or dynamic as told.
  static IntTuple integer(i64 v, bool is_static);
  // A basis stride (CuTe's ScaledBasis<T, path...>): `value` (static or dynamic) at the mode path
  // `path` of the codomain (outermost mode first, as CuTe's template arguments): E<1>{} =
  // basis(1, true, {1}) prints `_1@1`; E<1,0>{} * 3 (dynamic) = basis(3, false, {1,0}) prints
  // `3@0@1` (CuTe prints the path innermost first).
  // @pre path is not empty and every entry is >= 0
  static IntTuple basis(i64 value, bool value_is_static, std::vector<int> path);
  // A tuple of the given children (a 1-tuple stays a tuple: (4) != 4).
  static IntTuple tuple(std::vector<IntTuple> children);
  static IntTuple tuple(std::initializer_list<IntTuple> children);

  bool is_leaf() const { return leaf_; }
  bool is_tuple() const { return !leaf_; }
  // CuTe's is_static: a leaf's own flag; a tuple is static when every leaf is (an empty tuple is).
  bool is_static() const;
  // A leaf that is a basis stride (ScaledBasis), not an integer.
  bool is_basis() const { return leaf_ && !basis_.empty(); }
  // CuTe's is_constant<n>: a static integer leaf (not a basis) equal to n.
  bool is_constant(i64 n) const { return leaf_ && basis_.empty() && static_ && value_ == n; }
  // The integer of an integer leaf. @pre is_leaf(); a basis leaf throws LayoutError (it is not an integer).
  i64 value() const;
  // The number a leaf carries: the integer, or a basis stride's scale (3 for 3@1@0). @pre is_leaf()
  i64 scale() const;
  // The mode path of a basis leaf ({1,0} for _1@1@0); empty for an integer leaf.
  const std::vector<int>& basis_path() const { return basis_; }
  const std::vector<IntTuple>& children() const;    // @pre is_tuple()

  // rank: 1 for a leaf, the number of children for a tuple.
  std::size_t rank() const { return leaf_ ? 1 : children_.size(); }
  // get<i>: the i-th child; as in CuTe, get<0> of a leaf is the leaf itself.
  const IntTuple& operator[](std::size_t i) const;

  // Values and structure (and basis paths), NOT staticness: IntTuple(8) == IntTuple::dynamic(8).
  friend bool operator==(const IntTuple& a, const IntTuple& b);
  friend bool operator!=(const IntTuple& a, const IntTuple& b) { return !(a == b); }
  // Values, structure, basis paths AND staticness: what CuTe's type and value would both agree on.
  friend bool identical(const IntTuple& a, const IntTuple& b);

 private:
  bool leaf_;
  bool static_ = true;        // leaf: compile-time constant (CuTe C<v>)
  i64 value_;
  std::vector<int> basis_;    // leaf: non-empty for a basis stride (ScaledBasis)
  std::vector<IntTuple> children_;
};

// product: the product of all leaves; product(4) = 4, product(((2,3),4)) = 24.
i64 product(const IntTuple& t);
// depth: 0 for a leaf, 1 + the largest child depth for a tuple; depth(((2,3),4)) = 2.
int depth(const IntTuple& t);
// The leaves in order (colexicographic modes first): leaves(((2,3),4)) = [2,3,4].
std::vector<i64> leaves(const IntTuple& t);
// The leaf nodes in order (staticness and basis paths kept): leaf_nodes((_2,(3,_4))) = [_2,3,_4].
std::vector<IntTuple> leaf_nodes(const IntTuple& t);
// flatten: a leaf stays a leaf; a tuple becomes the tuple of its leaves (kept as they are: static,
// dynamic or basis). flatten(((2,3),4)) = (2,3,4).
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

// An IntTuple congruent to t with every leaf node replaced by f(leaf) (f sees and returns IntTuples,
// so staticness and basis paths are f's to keep or change).
template <class F>
IntTuple map_leaves(const IntTuple& t, F&& f) {
  if (t.is_leaf()) return f(t);
  std::vector<IntTuple> out;
  out.reserve(t.rank());
  for (const auto& c : t.children()) out.push_back(map_leaves(c, f));
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
