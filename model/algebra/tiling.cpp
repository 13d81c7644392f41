#include "model/algebra/tiling.hpp"

#include <string>

#include "model/layout/cute_int.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {
namespace {

// zip2_by(t, guide): ((A,a),((B,b),(C,c)),d) by (X,(X,X)) -> ((A,(B,C)),(a,(b,c),d)).
IntTuple zip2_by(const IntTuple& t, const Tiler& guide) {
  if (!guide.is_tuple()) {
    if (t.rank() != 2 || t.is_leaf()) throw LayoutError("zip2_by: expected a rank-2 mode");
    return t;
  }
  if (t.is_leaf() || t.rank() < guide.modes.size()) throw LayoutError("zip2_by: mismatched ranks");
  std::vector<IntTuple> first, second;
  for (std::size_t i = 0; i < guide.modes.size(); ++i) {
    const IntTuple split = zip2_by(t[i], guide.modes[i]);
    first.push_back(split[0]);
    second.push_back(split[1]);
  }
  for (std::size_t i = guide.modes.size(); i < t.rank(); ++i) second.push_back(t[i]);
  return IntTuple::tuple({IntTuple::tuple(std::move(first)), IntTuple::tuple(std::move(second))});
}

Layout tile_unzip(const Layout& l, const Tiler& t) { return raw_layout(zip2_by(l.shape, t), zip2_by(l.stride, t)); }

// The modes slice(repeat<rank(m)>(_), m) contributes: m's modes when it has rank > 1, else m whole.
void unpack_into(const Layout& m, std::vector<Layout>& modes) {
  if (m.rank() == 1) {
    modes.push_back(m);
    return;
  }
  for (std::size_t i = 0; i < m.rank(); ++i) modes.push_back(m.mode(i));
}

// result(_, repeat<rank<1>>(_)): unpack mode 1 one level when it has rank > 1.
Layout unpack_rest(const Layout& zipped) {
  std::vector<Layout> modes{zipped.mode(0)};
  unpack_into(zipped.mode(1), modes);
  return concat_layouts(modes);
}

// result(repeat<rank<0>>(_), repeat<rank<1>>(_)): unpack both modes one level.
Layout unpack_both(const Layout& zipped) {
  std::vector<Layout> modes;
  unpack_into(zipped.mode(0), modes);
  unpack_into(zipped.mode(1), modes);
  return concat_layouts(modes);
}

// transform_layout(L, tiler, f): f on the modes the tiler names, the rest of L kept.
template <class F>
Layout by_mode(const char* op, const Layout& l, const Tiler& t, F&& f) {
  if (t.modes.size() > l.rank())
    throw LayoutError(std::string(op) + ": tiler has " + std::to_string(t.modes.size()) + " modes but the layout " +
                      to_string(l) + " has rank " + std::to_string(l.rank()));
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < l.rank(); ++i) modes.push_back(i < t.modes.size() ? f(l.mode(i), t.modes[i]) : l.mode(i));
  return concat_layouts(modes);
}

// An integer tiler n is make_layout(n): n:_1 (_1:_0 for a static _1).
Layout tiler_layout(const char* op, const Tiler& t) {
  if (t.kind == Tiler::Kind::integer) {
    if (t.integer < 1) throw LayoutError(std::string(op) + ": tiler size " + std::to_string(t.integer) + " is not positive");
    return make_compact_layout(IntTuple::integer(t.integer, t.integer_static));
  }
  return t.layout;
}

// append<R>(L): pad with 1:0 modes up to rank R.
Layout append_to_rank(const Layout& l, std::size_t r) {
  if (l.rank() == r) return l;
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < l.rank(); ++i) modes.push_back(l.mode(i));
  while (modes.size() < r) modes.emplace_back(1, 0);
  return concat_layouts(modes);
}

// zip(A, B) as CuTe's zip(make_tuple(A, B)): when A is an integer the result is the single pair
// ((A,B)); otherwise mode i is (A_i, B_i), and B must be a tuple of A's rank (CuTe takes its
// tuple_size: an integer B does not compile).
IntTuple zip_pair(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf()) return IntTuple::tuple({IntTuple::tuple({a, b})});
  if (b.is_leaf())
    throw LayoutError("zip: the first layout's shape is a tuple but the second's is the integer " + to_cute_string(b) +
                      " (CuTe's zip takes tuple_size of both: a compile error in CuTe)");
  if (a.rank() != b.rank()) throw LayoutError("zip: mismatched ranks " + std::to_string(a.rank()) + " and " + std::to_string(b.rank()));
  std::vector<IntTuple> out;
  for (std::size_t i = 0; i < a.rank(); ++i) out.push_back(IntTuple::tuple({a[i], b[i]}));
  return IntTuple::tuple(std::move(out));
}

// complement(L, cotarget) as the divides and products need it: CuTe's complement, returned only when it
// meets the complement's definition (a divide or product built on a layout that is no complement is not
// the operation: logical_product(((_4,_6)):((_1,_6)), _3:_1) needs complement(A, _72), but A's offsets have
// holes (4, 5, 10, ...) that an ordered complement cannot fill, and CuTe's _2:_36 covers 70 < 72).
// The refusal names the operation (`op()`, built only then), the step and the condition the step's
// result breaks.
template <class Op>
Layout complement_step(const Op& op, const Layout& l, const IntTuple& cotarget) {
  try {
    return complement(l, cotarget);
  } catch (const LayoutError& e) {
    throw LayoutError(op() + " needs " + e.what());
  }
}

Layout rank_sensitive_product(const Layout& a, const Layout& b, bool raked) {
  const std::size_t r = std::max(a.rank(), b.rank());
  const Layout result = logical_product(append_to_rank(a, r), Tiler::of(append_to_rank(b, r)));
  const Layout first = raked ? result.mode(1) : result.mode(0);
  const Layout second = raked ? result.mode(0) : result.mode(1);
  return raw_layout(zip_pair(first.shape, second.shape), zip_pair(first.stride, second.stride));  // not coalesced (CuTe 4.x)
}

}  // namespace

Layout logical_divide(const Layout& l, const Tiler& t) {
  switch (t.kind) {
    case Tiler::Kind::tuple:
      return by_mode("logical_divide", l, t, [](const Layout& m, const Tiler& ti) { return logical_divide(m, ti); });
    case Tiler::Kind::underscore:
      return l;
    default: {
      const Layout tile = tiler_layout("logical_divide", t);
      const auto op = [&] { return "logical_divide " + to_cute_string(l) + " / " + to_cute_string(tile); };
      const Layout rest = complement_step(op, tile, coalesce(l).shape);
      return composition(l, concat_layouts({tile, rest}));
    }
  }
}

Layout zipped_divide(const Layout& l, const Tiler& t) { return tile_unzip(logical_divide(l, t), t); }

Layout tiled_divide(const Layout& l, const Tiler& t) { return unpack_rest(zipped_divide(l, t)); }

Layout flat_divide(const Layout& l, const Tiler& t) { return unpack_both(zipped_divide(l, t)); }

Layout logical_product(const Layout& a, const Tiler& b) {
  switch (b.kind) {
    case Tiler::Kind::tuple:
      return by_mode("logical_product", a, b, [](const Layout& m, const Tiler& ti) { return logical_product(m, ti); });
    case Tiler::Kind::underscore:
      return a;
    default: {
      const Layout tile = tiler_layout("logical_product", b);
      const IntTuple cotarget = cute_int::mul(size_cute(a), cosize_cute(tile));
      const auto op = [&] { return "logical_product " + to_cute_string(a) + " x " + to_cute_string(tile); };
      const Layout rest = complement_step(op, a, cotarget);
      return concat_layouts({a, composition(rest, tile)});
    }
  }
}

Layout zipped_product(const Layout& a, const Tiler& b) { return tile_unzip(logical_product(a, b), b); }

Layout tiled_product(const Layout& a, const Tiler& b) { return unpack_rest(zipped_product(a, b)); }

Layout flat_product(const Layout& a, const Tiler& b) { return unpack_both(zipped_product(a, b)); }

Layout blocked_product(const Layout& a, const Layout& b) { return rank_sensitive_product(a, b, false); }

Layout raked_product(const Layout& a, const Layout& b) { return rank_sensitive_product(a, b, true); }

}  // namespace layoutproof
