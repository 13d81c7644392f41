#include "model/algebra.hpp"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <string>

#include "model/notation.hpp"

namespace layoutproof {
namespace {

struct Mode {
  i64 shape;
  i64 stride;
};

// CuTe's detail::bw_coalesce: walk old modes I..0 backwards, pushing onto the front of `front`.
//   front s0:d0, old _1:d1      -> skip the old mode
//   front is the integer _1     -> replace it by the old mode
//   front s0:d0 with d0 == s1*d1 -> merge into s0*s1:d1
//   otherwise                   -> prepend s1:d1
// `front` starts as a single integer mode; it stays an integer layout unless something is prepended.
Layout bw_coalesce(const std::vector<i64>& old_shape, const std::vector<i64>& old_stride, int last,
                   Mode init) {
  std::deque<Mode> front{init};
  for (int i = last; i >= 0; --i) {
    const i64 s = old_shape[i], d = old_stride[i];
    if (s == 1) continue;
    if (front.size() == 1 && front[0].shape == 1) {
      front[0] = {s, d};
    } else if (checked_mul(s, d) == front[0].stride) {
      front[0] = {checked_mul(s, front[0].shape), d};
    } else {
      front.push_front({s, d});
    }
  }
  if (front.size() == 1) {
    if (front[0].shape == 1) return Layout(1, 0);
    return Layout(front[0].shape, front[0].stride);
  }
  std::vector<IntTuple> shapes, strides;
  for (const Mode& m : front) {
    shapes.emplace_back(m.shape);
    strides.emplace_back(m.stride);
  }
  return Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides)));
}

Layout coalesce_flat(const Layout& l, bool keep_outside_domain) {
  const std::vector<i64> s = leaves(l.shape), d = leaves(l.stride);
  if (s.empty()) throw LayoutError("coalesce: empty layout ()");
  const int r = static_cast<int>(s.size());
  Mode init{s[r - 1], d[r - 1]};
  if (keep_outside_domain && init.shape == 1) init.shape = 2;
  return bw_coalesce(s, d, r - 2, init);
}

std::string text(const Layout& l) { return to_string(l); }

}  // namespace

Layout coalesce(const Layout& l) { return coalesce_flat(l, false); }

Layout coalesce_x(const Layout& l) { return coalesce_flat(l, true); }

Layout coalesce(const Layout& l, const IntTuple& profile) {
  if (profile.is_leaf()) return coalesce(l);
  if (profile.rank() > l.rank())
    throw LayoutError("coalesce: profile rank " + std::to_string(profile.rank()) + " exceeds layout rank " +
                      std::to_string(l.rank()));
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < l.rank(); ++i)
    modes.push_back(i < profile.rank() ? coalesce(l.mode(i), profile[i]) : l.mode(i));
  return Layout::concat(modes);
}

Layout filter_zeros(const Layout& l) {
  const std::vector<i64> d = leaves(l.stride);
  std::size_t k = 0;
  IntTuple shape = transform_leaves(l.shape, [&](i64 s) { return d[k++] == 0 ? 1 : s; });
  return Layout(shape, l.stride);
}

Layout filter(const Layout& l) { return coalesce(filter_zeros(l)); }

// ---------------------------------------------------------------------------------------------
// Composition

namespace {

struct CompositionContext {
  const Layout& a;
  const Layout& b;
  // The first division of CuTe's algorithm that was not exact (empty: all exact).
  std::string inexact;
  [[noreturn]] void fail(const std::string& why) const {
    throw LayoutError("composition " + text(a) + " o " + text(b) + " is not admissible: " + why);
  }
};

// CuTe's shape_div(x, y) (x / y, or signum(x)*signum(y) when |x| < |y|) where x and y divide each
// other. Otherwise CuTe 3.x fails to compile and CuTe 4.x rounds up; layoutproof rounds up too,
// records the violated condition, and keeps the result only if it meets the definition.
i64 cute_div(CompositionContext& ctx, i64 x, i64 y, const std::string& what) {
  if (y != 0 && x != 0 && (x % y == 0 || y % x == 0)) {
    const i64 q = x / y;
    return q != 0 ? q : signum(x) * signum(y);
  }
  if (ctx.inexact.empty())
    ctx.inexact = what + " (" + std::to_string(x) + " and " + std::to_string(y) + " do not divide each other)";
  if (x <= 0 || y <= 0) ctx.fail(ctx.inexact);
  return checked_add(x, y - 1) / y;
}

// detail::composition_impl for a coalesced (integer or flat) lhs and one rhs mode.
Layout compose_mode(CompositionContext& ctx, const Layout& lhs, const IntTuple& rhs_shape,
                    const IntTuple& rhs_stride) {
  if (rhs_shape.is_tuple()) {  // right-distributivity over the modes of B
    std::vector<Layout> modes;
    for (std::size_t i = 0; i < rhs_shape.rank(); ++i)
      modes.push_back(compose_mode(ctx, lhs, rhs_shape[i], rhs_stride[i]));
    return Layout::concat(modes);
  }
  const i64 n = rhs_shape.value(), r = rhs_stride.value();
  if (r == 0) return Layout(n, 0);
  if (lhs.shape.is_leaf()) return Layout(n, checked_mul(r, lhs.stride.value()));

  const std::vector<i64> ls = leaves(lhs.shape), ld = leaves(lhs.stride);
  const int R = static_cast<int>(ls.size());
  if (r == 1) {  // take the first n elements of lhs
    std::vector<i64> shape1;
    i64 rest_shape = n;
    for (int i = 0; i + 1 < R; ++i) {
      const i64 si = std::llabs(ls[i]);
      shape1.push_back(shape_min(si, rest_shape));
      rest_shape = cute_div(ctx, rest_shape, si,
                            "size " + std::to_string(n) + " of the right layout vs. shape " + std::to_string(si) +
                                " of mode " + std::to_string(i) + " of the coalesced left layout");
    }
    return bw_coalesce(shape1, ld, R - 2, {rest_shape, ld[R - 1]});
  }
  // General case: divide the stride r out of the lhs shapes, then take n elements.
  std::vector<i64> shape1, stride1, shape2;
  i64 rest_stride = r;
  for (int i = 0; i + 1 < R; ++i) {
    const std::string what = "stride " + std::to_string(r) + " of the right layout vs. shape " + std::to_string(ls[i]) +
                             " of mode " + std::to_string(i) + " of the coalesced left layout";
    shape1.push_back(cute_div(ctx, ls[i], rest_stride, what));
    rest_stride = cute_div(ctx, rest_stride, ls[i], what);
    stride1.push_back(checked_mul(ld[i], cute_div(ctx, ls[i], shape1.back(), what)));
  }
  i64 rest_shape = n;
  for (int i = 0; i + 1 < R; ++i) {
    const i64 si = std::llabs(shape1[i]);
    shape2.push_back(shape_min(si, rest_shape));
    rest_shape = cute_div(ctx, rest_shape, si,
                          "size " + std::to_string(n) + " of the right layout vs. shape " + std::to_string(si) +
                              " left of mode " + std::to_string(i) + " after dividing out stride " + std::to_string(r));
  }
  return bw_coalesce(shape2, stride1, R - 2, {rest_shape, checked_mul(rest_stride, ld[R - 1])});
}

// The definition, checked exhaustively: result(c) == A(B(c)) for every index c of B.
// Always checked when B is small; when a division was inexact the result is only returned if
// this check covers all of B.
void check_composition(const CompositionContext& ctx, const Layout& result) {
  constexpr i64 kAlwaysCheck = i64{1} << 12, kCheckLimit = i64{1} << 20;
  const i64 n = size(ctx.b);
  if (n > (ctx.inexact.empty() ? kAlwaysCheck : kCheckLimit)) {
    if (ctx.inexact.empty()) return;
    ctx.fail(ctx.inexact);
  }
  const auto why = [&](const std::string& what) { return (ctx.inexact.empty() ? "" : ctx.inexact + "; ") + what; };
  if (size(result) != n)
    ctx.fail(why("CuTe's result " + text(result) + " has size " + std::to_string(size(result)) + ", not " + std::to_string(n)));
  const std::vector<i64> bo = offsets(ctx.b), ro = offsets(result);
  for (i64 i = 0; i < n; ++i) {
    const i64 want = evaluate(ctx.a, bo[i]);
    if (ro[i] != want)
      ctx.fail(why("CuTe's result " + text(result) + " gives " + std::to_string(ro[i]) + " at index " + std::to_string(i) +
                   " but A(B(" + std::to_string(i) + ")) = " + std::to_string(want)));
  }
}

}  // namespace

Layout composition(const Layout& a, const Layout& b) {
  CompositionContext ctx{a, b, {}};
  Layout result = compose_mode(ctx, coalesce_x(a), b.shape, b.stride);
  check_composition(ctx, result);
  return result;
}

Layout composition(const Layout& a, const Tiler& b) {
  switch (b.kind) {
    case Tiler::Kind::layout:
      return composition(a, b.layout);
    case Tiler::Kind::integer:
      if (b.integer < 1) throw LayoutError("tiler size " + std::to_string(b.integer) + " is not positive");
      return composition(a, Layout(b.integer, 1));
    case Tiler::Kind::underscore:
      return a;
    case Tiler::Kind::tuple: {
      if (b.modes.size() > a.rank())
        throw LayoutError("composition: tiler has " + std::to_string(b.modes.size()) + " modes but the layout " +
                          text(a) + " has rank " + std::to_string(a.rank()));
      std::vector<Layout> modes;
      for (std::size_t i = 0; i < b.modes.size(); ++i) modes.push_back(composition(a.mode(i), b.modes[i]));
      return Layout::concat(modes);  // modes of A beyond the tiler are dropped (CuTe C++)
    }
  }
  throw LayoutError("composition: unknown tiler");
}

// ---------------------------------------------------------------------------------------------
// Complement

Layout complement(const Layout& l, const IntTuple& cotarget) {
  const Layout f = filter(l);
  if (f.shape.is_leaf() && f.stride.value() == 0) {  // nothing to avoid: make_layout(coalesce(cotarget))
    const i64 n = product(cotarget);
    return n == 1 ? Layout(1, 0) : Layout(n, 1);
  }
  std::vector<i64> shape = leaves(f.shape), stride = leaves(f.stride);
  for (i64 d : stride)
    if (d < 0) throw LayoutError("complement of " + text(l) + ": negative stride " + std::to_string(d) + " is not supported");
  std::vector<i64> result_shape, result_stride{1};
  while (true) {
    const auto it = std::min_element(stride.begin(), stride.end());
    const std::size_t k = static_cast<std::size_t>(it - stride.begin());
    const i64 min_stride = *it, prev = result_stride.back();
    if (min_stride % prev != 0 || min_stride / prev == 0) {
      if (min_stride < prev)
        throw LayoutError("complement of " + text(l) + ": the layout is not injective (stride " +
                          std::to_string(min_stride) + " falls inside the previous modes, which span " + std::to_string(prev) + ")");
      throw LayoutError("complement of " + text(l) + ": stride " + std::to_string(min_stride) +
                        " is not divisible by " + std::to_string(prev) + " (shape*stride of the previous mode)");
    }
    result_shape.push_back(min_stride / prev);
    result_stride.push_back(checked_mul(min_stride, shape[k]));
    shape.erase(shape.begin() + static_cast<long>(k));
    stride.erase(stride.begin() + static_cast<long>(k));
    if (stride.empty()) break;
  }
  const i64 new_stride = result_stride.back();
  result_stride.pop_back();
  const i64 rest_shape = product(ceil_div(cotarget, new_stride));
  const i64 rest_stride = rest_shape == 1 ? 0 : new_stride;
  std::vector<IntTuple> s, d;
  for (std::size_t i = 0; i < result_shape.size(); ++i) {
    s.emplace_back(result_shape[i]);
    d.emplace_back(result_stride[i]);
  }
  s.emplace_back(rest_shape);
  d.emplace_back(rest_stride);
  return coalesce(Layout(IntTuple::tuple(std::move(s)), IntTuple::tuple(std::move(d))));
}

Layout complement(const Layout& l) { return complement(l, IntTuple(cosize(filter(l)))); }

// ---------------------------------------------------------------------------------------------
// Inverses

Layout right_inverse(const Layout& l) {
  const Layout flat = coalesce(l);
  const std::vector<i64> s = leaves(flat.shape), d = leaves(flat.stride);
  const IntTuple rstride = compact_col_major(flat.shape);
  const std::vector<i64> rs = leaves(rstride);
  std::vector<std::size_t> seq;
  i64 next = 1;
  while (true) {  // follow the strides from 1: each mode's shape*stride is the next stride
    std::size_t k = 0;
    while (k < d.size() && std::llabs(d[k]) != next) ++k;
    if (k == d.size()) break;
    seq.push_back(k);
    const i64 following = checked_mul(s[k], std::llabs(d[k]));
    if (following == next) break;
    next = following;
  }
  if (seq.empty()) return Layout(1, 0);
  if (seq.size() == 1) return Layout(s[seq[0]], signum(d[seq[0]]) * rs[seq[0]]);
  std::vector<IntTuple> shape, stride;
  for (std::size_t k : seq) {
    shape.emplace_back(s[k]);
    stride.emplace_back(signum(d[k]) * rs[k]);
  }
  return Layout(IntTuple::tuple(std::move(shape)), IntTuple::tuple(std::move(stride)));
}

Layout left_inverse(const Layout& l) { return right_inverse(Layout::concat({l, complement(l)})); }

}  // namespace layoutproof
