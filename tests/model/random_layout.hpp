#pragma once
// Random layouts, and deliberately wrong variants of results, for the tests of the algebra's
// definition checks (tests/model/algebra/composition_digits_test.cpp, complement_strides_test.cpp).
#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "model/layout/layout.hpp"

namespace layoutproof::testing {

// A random layout as bench/gen_algebra_queries.py draws them: compact in a random order, some strides 0,
// some gaps, shapes nested to depth 2; sizes kept small enough to enumerate.
inline Layout random_layout(std::mt19937& rng) {
  std::uniform_int_distribution<int> pick(0, 6), ranks(1, 3), coin(0, 9);
  const int shapes[] = {1, 2, 2, 3, 4, 4, 8};
  std::vector<std::vector<i64>> modes(static_cast<std::size_t>(ranks(rng)));
  for (auto& m : modes) {
    m.resize(static_cast<std::size_t>(ranks(rng)));
    for (i64& s : m) s = shapes[pick(rng)];
  }
  std::vector<std::pair<std::size_t, std::size_t>> at;
  for (std::size_t i = 0; i < modes.size(); ++i)
    for (std::size_t j = 0; j < modes[i].size(); ++j) at.push_back({i, j});
  std::shuffle(at.begin(), at.end(), rng);
  std::vector<std::vector<i64>> strides = modes;
  i64 cur = 1;
  for (auto [i, j] : at) {
    if (coin(rng) == 0) {
      strides[i][j] = 0;
      continue;
    }
    strides[i][j] = cur;
    cur *= modes[i][j] * (coin(rng) < 2 ? 2 : 1);
  }
  std::vector<IntTuple> s, d;
  for (std::size_t i = 0; i < modes.size(); ++i) {
    std::vector<IntTuple> ms, md;
    for (std::size_t j = 0; j < modes[i].size(); ++j) ms.emplace_back(modes[i][j]), md.emplace_back(strides[i][j]);
    s.push_back(IntTuple::tuple(ms));
    d.push_back(IntTuple::tuple(md));
  }
  return Layout(IntTuple::tuple(s), IntTuple::tuple(d));
}

// R with one leaf's stride moved by `by`: a deliberately wrong result for most leaves of size > 1.
inline Layout with_stride_changed(const Layout& r, std::size_t leaf, i64 by = 1) {
  std::size_t k = 0;
  const IntTuple d = map_leaves(r.stride, [&](const IntTuple& x) { return k++ == leaf ? IntTuple(x.value() + by) : x; });
  return raw_layout(r.shape, d);
}

}  // namespace layoutproof::testing
