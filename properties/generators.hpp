#pragma once
// RapidCheck generators for the layout model. Header-only; link layoutproof_properties.
//
// Every generator is valid by construction for the operation it names (few RC_PRE discards),
// keeps sizes small (size <= 4096 by default) so brute-force checks are cheap, prints in CuTe
// notation (showValue overloads below) and shrinks toward small layouts (fewer leaves, smaller
// shapes, shallower nesting, compact strides).
//
// API (namespace layoutproof::gen):
//   layouts(kinds, max_leaves, max_size)  plain layouts; kinds is a mask of StrideKind:
//       compact   (4,(2,2)):(1,(4,8))           column-major, size-1 modes keep the running stride
//       padded    (4,2):(1,6)                   column-major with gaps (pad factor 1..3 per mode)
//       permuted  (4,2):(2,1)                   modes ordered by a random permutation (+ padding
//                                               when `padded` is also in the mask)
//       broadcast (4,2):(0,4)                   one of the above with some strides set to 0
//       general   (4,2):(-3,5)                  arbitrary strides in [-12,12]
//     nested to depth 0..3 (0: an integer layout 8:1; a 1-leaf layout may also be a 1-tuple (8):(1)).
//   Arbitrary<Layout>                       = layouts(all kinds)
//   admissible()                            injective layouts that complement/left_inverse accept:
//                                           permuted+padded col-major (sorted strides divide)
//   composable_rhs(A)                       a B with every shape_div of A o B exact
//   divide_tiler(L) / zipped_tiler(L)       tilers satisfying logical_divide's divisibility (by
//                                           layout, integer, by-mode tuple; `_` only in the first)
//   Arbitrary<Swizzle>                      Sw<B,M,S>, B in 0..3, M in 0..4, |S| in B..B+3, both signs
//   swizzled()                              AnyLayout Sw<B,M,S> o OFF o L
// tiler_to_string(T) prints a tiler as the CLI parses it: [8:1,_,4].
#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "model/algebra/algebra.hpp"
#include "model/layout/composed.hpp"
#include "model/layout/notation.hpp"
#include "model/layout/swizzle.hpp"
#include "model/layout/tiler.hpp"

namespace layoutproof {

inline std::string tiler_to_string(const Tiler& t) {
  switch (t.kind) {
    case Tiler::Kind::layout: return to_string(t.layout);
    case Tiler::Kind::integer: return std::to_string(t.integer);
    case Tiler::Kind::underscore: return "_";
    case Tiler::Kind::tuple: {
      std::string s = "[";
      for (std::size_t i = 0; i < t.modes.size(); ++i) s += (i ? "," : "") + tiler_to_string(t.modes[i]);
      return s + "]";
    }
  }
  return "?";
}

// RapidCheck finds these by ADL when it prints a counterexample.
inline void showValue(const IntTuple& t, std::ostream& os) { os << to_string(t); }
inline void showValue(const Layout& l, std::ostream& os) { os << to_string(l); }
inline void showValue(const Swizzle& s, std::ostream& os) { os << to_string(s); }
inline void showValue(const AnyLayout& l, std::ostream& os) { os << to_string(l); }
inline void showValue(const Tiler& t, std::ostream& os) { os << tiler_to_string(t); }

namespace gen {

enum StrideKind : unsigned {
  compact = 1,
  padded = 2,
  permuted = 4,
  broadcast = 8,
  general = 16,
  all_kinds = 31,
};

constexpr i64 kMaxSize = 4096;

// Shape leaves, smallest first so shrinking goes toward 1 and 2.
inline rc::Gen<i64> shape_leaf() {
  return rc::gen::weightedElement<i64>({{2, 1}, {6, 2}, {4, 4}, {4, 3}, {3, 8}, {2, 6}, {1, 5}, {1, 16}});
}

// A profile over leaf indices 0..n-1 of depth exactly d (d >= 1), children built contiguously.
// Must run inside rc::gen::exec (it draws with operator*).
inline IntTuple build_profile(int first, int n, int d) {
  if (d <= 1) {
    std::vector<IntTuple> kids;
    for (int i = 0; i < n; ++i) kids.emplace_back(first + i);
    return IntTuple::tuple(std::move(kids));
  }
  const int k = *rc::gen::inRange(1, std::min(3, n) + 1);
  // Split n into k non-empty contiguous groups.
  std::vector<int> sizes(k, 1);
  for (int extra = n - k; extra > 0; --extra) sizes[*rc::gen::inRange(0, k)]++;
  std::vector<IntTuple> kids;
  int at = first;
  for (int g = 0; g < k; ++g) {
    if (g == 0) {
      kids.push_back(build_profile(at, sizes[g], d - 1));
    } else if (sizes[g] == 1 && *rc::gen::arbitrary<bool>()) {
      kids.emplace_back(at);
    } else {
      kids.push_back(build_profile(at, sizes[g], *rc::gen::inRange(1, d)));
    }
    at += sizes[g];
  }
  return IntTuple::tuple(std::move(kids));
}

// Shape leaves (1..max_leaves of them, product <= max_size) and a nesting of depth 0..3.
struct FlatDraw {
  std::vector<i64> shape;
  IntTuple profile;  // leaves are indices into shape
};

inline FlatDraw draw_flat(int max_leaves, i64 max_size) {
  FlatDraw f;
  const int n = *rc::gen::inRange(1, max_leaves + 1);
  for (int i = 0; i < n; ++i) f.shape.push_back(*shape_leaf());
  auto prod = [&] { i64 p = 1; for (i64 s : f.shape) p *= s; return p; };
  while (prod() > max_size) *std::max_element(f.shape.begin(), f.shape.end()) = 1;
  // Depth: 0 only for a single leaf; shrinks toward depth 1 (flat).
  const int d = n == 1 ? *rc::gen::element(1, 0, 2, 3) : *rc::gen::inRange(1, 4);
  f.profile = d == 0 ? IntTuple(0) : build_profile(0, n, d);
  return f;
}

inline IntTuple unflatten(const IntTuple& profile, const std::vector<i64>& v) {
  return transform_leaves(profile, [&](i64 i) { return v[static_cast<std::size_t>(i)]; });
}

// Column-major strides in the given mode order, each step multiplied by a pad factor.
inline std::vector<i64> ordered_strides(const std::vector<i64>& shape, const std::vector<int>& order, bool pad) {
  std::vector<i64> stride(shape.size());
  i64 run = 1;
  for (int i : order) {
    stride[static_cast<std::size_t>(i)] = run;
    run *= shape[static_cast<std::size_t>(i)] * (pad ? *rc::gen::weightedElement<i64>({{4, 1}, {2, 2}, {1, 3}}) : 1);
  }
  return stride;
}

inline std::vector<int> draw_order(int n, bool permute) {
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  if (permute) {
    const auto keys = *rc::gen::container<std::vector<int>>(static_cast<std::size_t>(n), rc::gen::inRange(0, 64));
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] < keys[b]; });
  }
  return order;
}

// Layouts whose stride kind is drawn from the mask `kinds` (see the header comment).
inline rc::Gen<Layout> layouts(unsigned kinds = all_kinds, int max_leaves = 5, i64 max_size = kMaxSize) {
  std::vector<unsigned> choices;
  for (unsigned k : {compact, padded, permuted, broadcast, general})
    if (kinds & k) choices.push_back(k);
  return rc::gen::exec([=] {
    const FlatDraw f = draw_flat(max_leaves, max_size);
    const int n = static_cast<int>(f.shape.size());
    const unsigned kind = *rc::gen::elementOf(choices);
    std::vector<i64> stride;
    if (kind == general) {
      stride = *rc::gen::container<std::vector<i64>>(f.shape.size(), rc::gen::inRange<i64>(-12, 13));
    } else {
      const bool permute = kind == permuted || (kind == broadcast && *rc::gen::arbitrary<bool>());
      const bool pad = (kinds & padded) && kind != compact && *rc::gen::arbitrary<bool>();
      stride = ordered_strides(f.shape, draw_order(n, permute), pad);
      if (kind == broadcast) {
        stride[static_cast<std::size_t>(*rc::gen::inRange(0, n))] = 0;
        for (auto& d : stride)
          if (*rc::gen::weightedElement<int>({{3, 0}, {1, 1}})) d = 0;
      }
    }
    return Layout(unflatten(f.profile, f.shape), unflatten(f.profile, stride));
  });
}

// Injective layouts complement accepts: sorted by stride, each stride is a multiple of the
// previous mode's shape*stride.
inline rc::Gen<Layout> admissible(int max_leaves = 5, i64 max_size = kMaxSize) {
  return layouts(compact | padded | permuted, max_leaves, max_size);
}

// The domain leaves of A that composition's coalesce_x(A) sees: size-1 leaves dropped, except a
// trailing one, which coalesce_x keeps as a mode of shape 2 that takes the rest.
inline std::vector<i64> domain_leaves(const Layout& a) {
  std::vector<i64> out;
  const std::vector<i64> all = leaves(a.shape);
  for (i64 s : all)
    if (s != 1) out.push_back(s);
  if (all.back() == 1) out.push_back(2);
  return out;
}

inline std::vector<i64> divisors(i64 n) {
  std::vector<i64> d;
  for (i64 k = 1; k <= n; ++k)
    if (n % k == 0) d.push_back(k);
  return d;
}

// One mode n:r of a composable right-hand side for the domain leaves a: r = a0*...*a_{j-1}*t with
// t | a_j, and n = a_j/t * a_{j+1} * ... * a_{l-1} * m with m | a_l, or a divisor of a_j/t (the
// last leaf of A takes any rest, so there m is free). Stride 0 is always admissible.
inline Layout composable_mode(const std::vector<i64>& a) {
  if (a.empty() || *rc::gen::weightedElement<int>({{9, 0}, {1, 1}}))
    return Layout(*rc::gen::inRange<i64>(1, 5), 0);
  const int k = static_cast<int>(a.size());
  const int j = *rc::gen::inRange(0, k);
  i64 prefix = 1;
  for (int i = 0; i < j; ++i) prefix *= a[static_cast<std::size_t>(i)];
  const i64 t = *rc::gen::elementOf(divisors(a[static_cast<std::size_t>(j)]));
  const i64 q = a[static_cast<std::size_t>(j)] / t;
  i64 n;
  if (j == k - 1) {
    n = *rc::gen::inRange<i64>(1, 9);  // the last mode of A takes any rest
  } else if (*rc::gen::arbitrary<bool>()) {
    n = *rc::gen::elementOf(divisors(q));
  } else {
    const int l = *rc::gen::inRange(j + 1, k);
    n = q;
    for (int i = j + 1; i < l; ++i) n *= a[static_cast<std::size_t>(i)];
    n *= l == k - 1 ? *rc::gen::inRange<i64>(1, 5) : *rc::gen::elementOf(divisors(a[static_cast<std::size_t>(l)]));
  }
  return Layout(n, prefix * t);
}

// B such that A o B is admissible and equals A(B(c)): one mode from composable_mode, or 2..3
// modes on distinct domain leaves j (r = a_0*...*a_{j-1}*t, n | a_j/t; any n on A's last leaf),
// so no two modes carry into each other's digits (CuTe composes mode by mode, which matches
// A(B(c)) only then). An integer layout or a tuple; size <= 4096.
inline rc::Gen<Layout> composable_rhs(const Layout& a) {
  const std::vector<i64> dom = domain_leaves(a);
  return rc::gen::exec([dom] {
    const int k = static_cast<int>(dom.size());
    const int r = k == 0 ? 1 : *rc::gen::inRange(1, std::min(3, k) + 1);
    if (r == 1) {
      const Layout m = composable_mode(dom);
      return *rc::gen::arbitrary<bool>() ? m : Layout::concat({m});
    }
    const std::vector<int> order = draw_order(k, true);
    std::vector<Layout> modes;
    for (int i = 0; i < r; ++i) {
      if (*rc::gen::weightedElement<int>({{9, 0}, {1, 1}})) {
        modes.emplace_back(*rc::gen::inRange<i64>(1, 5), 0);
        continue;
      }
      const int j = order[static_cast<std::size_t>(i)];
      i64 prefix = 1;
      for (int x = 0; x < j; ++x) prefix *= dom[static_cast<std::size_t>(x)];
      const i64 t = *rc::gen::elementOf(divisors(dom[static_cast<std::size_t>(j)]));
      const i64 n = j == k - 1 ? *rc::gen::inRange<i64>(1, 9)
                               : *rc::gen::elementOf(divisors(dom[static_cast<std::size_t>(j)] / t));
      modes.emplace_back(n, prefix * t);
    }
    return Layout::concat(modes);
  });
}

// A tile of the domain `shape`: modes m_i : (a_0*...*a_{i-1}) with m_i | a_i, in a random
// order; an integer tiler when the tile is a prefix of the domain (n = a_0*...*a_{j-1}*m_j).
inline Tiler draw_tile(const IntTuple& shape, bool allow_integer) {
  const std::vector<i64> a = leaves(shape);
  if (allow_integer && *rc::gen::arbitrary<bool>()) {
    const int j = *rc::gen::inRange(0, static_cast<int>(a.size()));
    i64 n = 1;
    for (int i = 0; i < j; ++i) n *= a[static_cast<std::size_t>(i)];
    return Tiler::of_int(n * *rc::gen::elementOf(divisors(a[static_cast<std::size_t>(j)])));
  }
  std::vector<Layout> modes;
  i64 prefix = 1;
  for (i64 s : a) {
    const i64 m = *rc::gen::elementOf(divisors(s));
    if (m > 1) modes.emplace_back(m, prefix);
    prefix *= s;
  }
  if (modes.empty()) return Tiler::of(Layout(1, 0));
  std::vector<int> order = draw_order(static_cast<int>(modes.size()), true);
  std::vector<Layout> shuffled;
  for (int i : order) shuffled.push_back(modes[static_cast<std::size_t>(i)]);
  if (shuffled.size() == 1 && *rc::gen::arbitrary<bool>()) return Tiler::of(shuffled[0]);
  return Tiler::of(Layout::concat(shuffled));
}

// Tilers for logical_divide(L, T): a whole-layout tile, or a by-mode tuple of rank <= rank(L)
// whose entries are tiles of L's modes, integers or `_` (only when allow_underscore).
inline Tiler draw_divide_tiler(const Layout& l, bool allow_underscore) {
  if (l.shape.is_leaf() || *rc::gen::weightedElement<int>({{1, 0}, {2, 1}}) == 0)
    return draw_tile(l.shape, true);
  const int r = *rc::gen::inRange(1, static_cast<int>(l.rank()) + 1);
  std::vector<Tiler> modes;
  for (int i = 0; i < r; ++i) {
    if (allow_underscore && *rc::gen::weightedElement<int>({{4, 0}, {1, 1}}))
      modes.push_back(Tiler::underscore());
    else
      modes.push_back(draw_tile(l.shape[static_cast<std::size_t>(i)], true));
  }
  return Tiler::by_mode(std::move(modes));
}

inline rc::Gen<Tiler> divide_tiler(const Layout& l) {
  return rc::gen::exec([l] { return draw_divide_tiler(l, true); });
}
// zipped/tiled forms: CuTe's zip2_by needs rank-2 modes under `_`, so no `_` here.
inline rc::Gen<Tiler> zipped_tiler(const Layout& l) {
  return rc::gen::exec([l] { return draw_divide_tiler(l, false); });
}

inline rc::Gen<Swizzle> swizzles() {
  return rc::gen::exec([] {
    Swizzle s;
    s.B = *rc::gen::inRange(0, 4);
    s.M = *rc::gen::inRange(0, 5);
    const int abs_s = s.B + *rc::gen::inRange(0, 4);
    s.S = *rc::gen::arbitrary<bool>() ? -abs_s : abs_s;
    return s;
  });
}

// Sw<B,M,S> o OFF o L with L any layout of the given kinds and 0 <= OFF < 2^(M+B+|S|+1).
inline rc::Gen<AnyLayout> swizzled(unsigned kinds = all_kinds) {
  return rc::gen::exec([kinds] {
    const Swizzle s = *swizzles();
    const i64 off = *rc::gen::inRange<i64>(0, i64{1} << (s.span_bits() + 1));
    return AnyLayout(s, off, *layouts(kinds));
  });
}

}  // namespace gen
}  // namespace layoutproof

namespace rc {
template <>
struct Arbitrary<layoutproof::Layout> {
  static Gen<layoutproof::Layout> arbitrary() { return layoutproof::gen::layouts(); }
};
template <>
struct Arbitrary<layoutproof::Swizzle> {
  static Gen<layoutproof::Swizzle> arbitrary() { return layoutproof::gen::swizzles(); }
};
template <>
struct Arbitrary<layoutproof::AnyLayout> {
  static Gen<layoutproof::AnyLayout> arbitrary() { return layoutproof::gen::swizzled(); }
};
}  // namespace rc
