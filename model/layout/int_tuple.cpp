#include "model/layout/int_tuple.hpp"

#include <algorithm>
#include <cassert>
#include <string>

namespace layoutproof {

IntTuple IntTuple::tuple(std::vector<IntTuple> children) {
  IntTuple t;
  t.leaf_ = false;
  t.children_ = std::move(children);
  return t;
}

IntTuple IntTuple::tuple(std::initializer_list<IntTuple> children) {
  return tuple(std::vector<IntTuple>(children));
}

IntTuple IntTuple::dynamic(i64 v) { return integer(v, false); }

IntTuple IntTuple::integer(i64 v, bool is_static) {
  IntTuple t(v);
  t.static_ = is_static;
  return t;
}

IntTuple IntTuple::basis(i64 value, bool value_is_static, std::vector<int> path) {
  if (path.empty()) throw LayoutError("a basis stride needs at least one mode index (E<0>, E<1,0>, ...)");
  for (int p : path)
    if (p < 0) throw LayoutError("basis mode index " + std::to_string(p) + " is negative");
  IntTuple t = integer(value, value_is_static);
  t.basis_ = std::move(path);
  return t;
}

bool IntTuple::is_static() const {
  if (leaf_) return static_;
  for (const auto& c : children_)
    if (!c.is_static()) return false;
  return true;
}

i64 IntTuple::value() const {
  assert(leaf_);
  if (!basis_.empty()) {
    std::string path;
    for (int p : basis_) path += "@" + std::to_string(p);
    throw LayoutError("the basis stride " + std::to_string(value_) + path +
                      " is a coordinate direction, not an integer (only some operations accept basis strides)");
  }
  return value_;
}

i64 IntTuple::scale() const {
  assert(leaf_);
  return value_;
}

const std::vector<IntTuple>& IntTuple::children() const {
  assert(!leaf_);
  return children_;
}

const IntTuple& IntTuple::operator[](std::size_t i) const {
  if (leaf_) {
    if (i != 0) throw LayoutError("mode " + std::to_string(i) + " of an integer does not exist");
    return *this;
  }
  if (i >= children_.size())
    throw LayoutError("mode " + std::to_string(i) + " out of range for a rank-" +
                      std::to_string(children_.size()) + " tuple");
  return children_[i];
}

bool operator==(const IntTuple& a, const IntTuple& b) {
  if (a.leaf_ != b.leaf_) return false;
  if (a.leaf_) return a.value_ == b.value_ && a.basis_ == b.basis_;
  return a.children_ == b.children_;
}

bool identical(const IntTuple& a, const IntTuple& b) {
  if (a.leaf_ != b.leaf_) return false;
  if (a.leaf_) return a.value_ == b.value_ && a.basis_ == b.basis_ && a.static_ == b.static_;
  if (a.children_.size() != b.children_.size()) return false;
  for (std::size_t i = 0; i < a.children_.size(); ++i)
    if (!identical(a.children_[i], b.children_[i])) return false;
  return true;
}

i64 product(const IntTuple& t) {
  if (t.is_leaf()) return t.value();
  i64 p = 1;
  for (const auto& c : t.children()) p = checked_mul(p, product(c));
  return p;
}

int depth(const IntTuple& t) {
  if (t.is_leaf()) return 0;
  int d = 0;
  for (const auto& c : t.children()) d = std::max(d, depth(c));
  return 1 + d;
}

static void collect_leaves(const IntTuple& t, std::vector<i64>& out) {
  if (t.is_leaf()) {
    out.push_back(t.value());
    return;
  }
  for (const auto& c : t.children()) collect_leaves(c, out);
}

std::vector<i64> leaves(const IntTuple& t) {
  std::vector<i64> out;
  collect_leaves(t, out);
  return out;
}

static void collect_leaf_nodes(const IntTuple& t, std::vector<IntTuple>& out) {
  if (t.is_leaf()) {
    out.push_back(t);
    return;
  }
  for (const auto& c : t.children()) collect_leaf_nodes(c, out);
}

std::vector<IntTuple> leaf_nodes(const IntTuple& t) {
  std::vector<IntTuple> out;
  collect_leaf_nodes(t, out);
  return out;
}

IntTuple flatten(const IntTuple& t) {
  if (t.is_leaf()) return t;
  return IntTuple::tuple(leaf_nodes(t));
}

bool congruent(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf() || b.is_leaf()) return a.is_leaf() && b.is_leaf();
  if (a.rank() != b.rank()) return false;
  for (std::size_t i = 0; i < a.rank(); ++i)
    if (!congruent(a[i], b[i])) return false;
  return true;
}

i64 shape_div(i64 a, i64 b, const char* what) {
  if (b == 0 || a == 0 || (a % b != 0 && b % a != 0))
    throw LayoutError(std::string(what) + ": " + std::to_string(a) + " and " + std::to_string(b) +
                      " do not divide each other");
  i64 q = a / b;
  return q != 0 ? q : signum(a) * signum(b);
}

IntTuple shape_div(const IntTuple& a, const IntTuple& b, const char* what) {
  if (a.is_tuple()) {
    std::vector<IntTuple> out;
    if (b.is_tuple()) {
      if (a.rank() != b.rank()) throw LayoutError(std::string(what) + ": mismatched ranks");
      for (std::size_t i = 0; i < a.rank(); ++i) out.push_back(shape_div(a[i], b[i], what));
      return IntTuple::tuple(std::move(out));
    }
    IntTuple rest = b;
    for (const auto& ai : a.children()) {
      out.push_back(shape_div(ai, rest, what));
      rest = shape_div(rest, ai, what);
    }
    return IntTuple::tuple(std::move(out));
  }
  if (b.is_tuple()) return shape_div(a, IntTuple(product(b)), what);
  return shape_div(a.value(), b.value(), what);
}

IntTuple ceil_div(const IntTuple& a, i64 b) {
  if (b <= 0) throw LayoutError("ceil_div by non-positive " + std::to_string(b));
  if (a.is_leaf()) return IntTuple(ceil_div(a.value(), b));
  std::vector<IntTuple> out;
  i64 rest = b;
  for (const auto& ai : a.children()) {
    out.push_back(ceil_div(ai, rest));
    i64 pa = product(ai);
    rest = ceil_div(rest, pa);
  }
  return IntTuple::tuple(std::move(out));
}

i64 shape_min(i64 a, i64 b) {
  if (a == 1 || b == 1) return 1;
  return std::min(a, b);
}

IntTuple elem_scale(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf()) return IntTuple(checked_mul(a.value(), product(b)));
  if (b.is_leaf() || a.rank() != b.rank()) throw LayoutError("elem_scale: mismatched ranks");
  std::vector<IntTuple> out;
  for (std::size_t i = 0; i < a.rank(); ++i) out.push_back(elem_scale(a[i], b[i]));
  return IntTuple::tuple(std::move(out));
}

static IntTuple compact_col_major_impl(const IntTuple& shape, i64& current) {
  if (shape.is_leaf()) {
    if (shape.value() == 1) return IntTuple(0);
    i64 stride = current;
    current = checked_mul(current, shape.value());
    return IntTuple(stride);
  }
  std::vector<IntTuple> out;
  for (const auto& s : shape.children()) out.push_back(compact_col_major_impl(s, current));
  return IntTuple::tuple(std::move(out));
}

IntTuple compact_col_major(const IntTuple& shape, i64 current) {
  return compact_col_major_impl(shape, current);
}

}  // namespace layoutproof
