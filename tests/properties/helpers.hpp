#pragma once
// Small brute-force helpers shared by the property tests.
#include <algorithm>
#include <numeric>
#include <vector>

#include "model/layout/layout.hpp"

namespace layoutproof::props {

inline std::vector<i64> sorted(std::vector<i64> v) {
  std::sort(v.begin(), v.end());
  return v;
}
// v is a permutation of 0..v.size()-1.
inline bool is_iota_permutation(const std::vector<i64>& v) {
  std::vector<i64> want(v.size());
  std::iota(want.begin(), want.end(), 0);
  return sorted(v) == want;
}
inline bool same_function(const Layout& a, const Layout& b) {
  return size(a) == size(b) && offsets(a) == offsets(b);
}
inline bool injective(const Layout& l) {
  auto s = sorted(offsets(l));
  return std::adjacent_find(s.begin(), s.end()) == s.end();
}

}  // namespace layoutproof::props
