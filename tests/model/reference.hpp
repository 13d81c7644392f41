#pragma once
// Reference implementations shared by the model tests: independent, obviously-correct
// definitions (no model/ code beyond parsing) that the model is checked against.
#include <string>
#include <vector>

#include "model/layout/notation.hpp"

namespace layoutproof::testing {

using T = IntTuple;
inline Layout L(const std::string& s) { return parse_layout(s); }
inline Tiler TL(const std::string& s) { return parse_tiler(s); }
inline T tup(std::initializer_list<IntTuple> c) { return IntTuple::tuple(c); }

// L(i): split i colexicographically over the leaves; the last leaf takes the rest (CuTe's
// extension of a layout past its size).
inline i64 ref_eval(const Layout& l, i64 i) {
  const std::vector<i64> s = leaves(l.shape), d = leaves(l.stride);
  i64 off = 0;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const i64 c = (k + 1 == s.size()) ? i : i % s[k];
    off += c * d[k];
    i /= s[k];
  }
  return off;
}

inline i64 ref_size(const Layout& l) {
  i64 n = 1;
  for (i64 s : leaves(l.shape)) n *= s;
  return n;
}

inline std::vector<i64> ref_offsets(const Layout& l) {
  std::vector<i64> o;
  for (i64 i = 0; i < ref_size(l); ++i) o.push_back(ref_eval(l, i));
  return o;
}

}  // namespace layoutproof::testing
