#include "model/algebra/complement_strides.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace layoutproof {
namespace {

struct Leaf {
  i64 size, stride;
  bool of_r;
};

// The leaves of l, or false when a stride is a basis element or a size is below 1.
bool leaves_of(const Layout& l, bool of_r, std::vector<Leaf>& out) {
  const std::vector<i64> s = leaves(l.shape);
  const std::vector<IntTuple> d = leaf_nodes(l.stride);
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (d[k].is_basis() || s[k] < 1) return false;
    out.push_back({s[k], d[k].value(), of_r});
  }
  return true;
}

i64 abs_checked(i64 v) {
  if (v == INT64_MIN) throw OverflowError("64-bit overflow: |" + std::to_string(v) + "|");
  return v < 0 ? -v : v;
}

// The largest |offset| (and |partial sum|) enumerating l meets: sum of (s - 1) * |d|; throws on overflow.
i64 offset_bound(const std::vector<Leaf>& leaves) {
  i64 bound = 0;
  for (const Leaf& x : leaves) bound = checked_add(bound, checked_mul(x.size - 1, abs_checked(x.stride)));
  return bound;
}

// Each leaf that moves the offset exceeds all that the leaves before it add up to.
bool each_above_the_ones_before(const std::vector<Leaf>& leaves) {
  i64 reach = 0;  // the largest offset the leaves so far reach
  for (const Leaf& x : leaves) {
    if (x.size == 1) continue;
    if (x.stride <= reach) return false;
    reach = checked_add(reach, checked_mul(x.size - 1, x.stride));
  }
  return true;
}

bool holds(const Layout& l, const Layout& r) {
  std::vector<Leaf> ls, rs;
  if (!leaves_of(l, false, ls) || !leaves_of(r, true, rs)) return false;
  offset_bound(ls);  // throws when the enumeration's arithmetic would
  offset_bound(rs);
  if (!each_above_the_ones_before(rs)) return false;  // (3), exactly
  std::vector<Leaf> both;
  for (const Leaf& x : ls) {
    if (x.size == 1 || x.stride == 0) continue;  // moves no offset of L
    if (x.stride < 0) return false;
    both.push_back(x);
  }
  both.insert(both.end(), rs.begin(), rs.end());
  std::stable_sort(both.begin(), both.end(), [](const Leaf& a, const Leaf& b) { return a.stride < b.stride; });
  return each_above_the_ones_before(both);  // (4): L and R together injective
}

}  // namespace

bool complement_holds_by_strides(const Layout& l, const Layout& r) {
  try {
    return holds(l, r);
  } catch (const OverflowError&) {
    return false;  // not shown: the enumeration then meets (and reports) the overflow itself
  }
}

}  // namespace layoutproof
