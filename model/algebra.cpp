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
  if (front.size() == 1 && front[0].shape == 1) return Layout(1, 0);
  std::vector<i64> shapes, strides;
  for (const Mode& m : front) {
    shapes.push_back(m.shape);
    strides.push_back(m.stride);
  }
  return Layout::flat(shapes, strides);
}

Layout coalesce_flat(const Layout& l, bool keep_outside_domain) {
  const std::vector<i64> s = leaves(l.shape), d = leaves(l.stride);
  if (s.empty()) throw LayoutError("coalesce: empty layout ()");
  const int r = static_cast<int>(s.size());
  Mode init{s[r - 1], d[r - 1]};
  if (keep_outside_domain && init.shape == 1) init.shape = 2;
  return bw_coalesce(s, d, r - 2, init);
}

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
    throw LayoutError("composition " + to_string(a) + " o " + to_string(b) + " is not admissible: " + why);
  }
};

std::string mode_text(int i, i64 shape) {
  return "mode " + std::to_string(i) + " (shape " + std::to_string(shape) + ") of the coalesced left layout";
}

// detail::composition_impl of CuTe 4.x for a coalesced (integer or flat) lhs and one rhs mode:
// walk the lhs modes, dividing the rhs stride out of each shape (rounding up) and taking rhs
// shape elements from what remains.
//   next_shape  = ceil(curr_shape / |rest_stride|),  next_stride = ceil(|rest_stride| / curr_shape)
//   new_shape   = min(next_shape, rest_shape)        appended with stride rest_stride*curr_stride
// CuTe's static checks (kept as errors here):
//   Stride Divisibility Condition: rest_stride % curr_shape == 0 or rest_stride < curr_shape
//   Shape Divisibility Condition:  rest_shape % new_shape == 0
// When a ceil is inexact (curr_shape not a multiple of rest_stride) CuTe passes its checks but may
// return a wrong layout: ctx.inexact records it and the result must pass the definition check.
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
  std::vector<i64> result_shape, result_stride;
  i64 rest_shape = n, rest_stride = r;
  for (int i = 0; i + 1 < R; ++i) {
    const i64 curr_shape = ls[i], abs_rest = std::llabs(rest_stride);
    if (!(rest_stride % curr_shape == 0 || rest_stride < curr_shape))
      ctx.fail("Stride Divisibility Condition: stride " + std::to_string(rest_stride) + " left of the right layout's stride " +
               std::to_string(r) + " is neither a multiple of nor smaller than " + mode_text(i, curr_shape));
    if (curr_shape % abs_rest != 0 && abs_rest % curr_shape != 0 && ctx.inexact.empty())
      ctx.inexact = "stride " + std::to_string(abs_rest) + " does not divide " + mode_text(i, curr_shape);
    const i64 next_shape = ceil_div(curr_shape, abs_rest);
    const i64 next_stride = ceil_div(abs_rest, curr_shape) * signum(rest_stride);
    if (next_shape != 1 && rest_shape != 1) {
      const i64 new_shape = std::min(next_shape, rest_shape);
      if (rest_shape % new_shape != 0)
        ctx.fail("Shape Divisibility Condition: size " + std::to_string(rest_shape) + " left of the right layout's size " +
                 std::to_string(n) + " is not a multiple of " + std::to_string(new_shape) + ", what " + mode_text(i, curr_shape) +
                 " offers");
      result_shape.push_back(new_shape);
      result_stride.push_back(checked_mul(rest_stride, ld[i]));
      rest_shape /= new_shape;
    }
    rest_stride = next_stride;
  }
  if (result_shape.empty()) return Layout(rest_shape, checked_mul(rest_stride, ld[R - 1]));
  if (rest_shape == 1) return Layout::flat(result_shape, result_stride);
  result_shape.push_back(rest_shape);
  result_stride.push_back(checked_mul(rest_stride, ld[R - 1]));
  return Layout::flat(result_shape, result_stride);
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
    ctx.fail(why("CuTe's result " + to_string(result) + " has size " + std::to_string(size(result)) + ", not " + std::to_string(n)));
  const std::vector<i64> bo = offsets(ctx.b), ro = offsets(result);
  for (i64 i = 0; i < n; ++i) {
    const i64 want = evaluate(ctx.a, bo[i]);
    if (ro[i] != want)
      ctx.fail(why("CuTe's result " + to_string(result) + " gives " + std::to_string(ro[i]) + " at index " + std::to_string(i) +
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
                          to_string(a) + " has rank " + std::to_string(a.rank()));
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
    if (d < 0) throw LayoutError("complement of " + to_string(l) + ": negative stride " + std::to_string(d) + " is not supported");
  std::vector<i64> result_shape, result_stride{1};
  while (true) {
    const auto it = std::min_element(stride.begin(), stride.end());
    const std::size_t k = static_cast<std::size_t>(it - stride.begin());
    const i64 min_stride = *it, prev = result_stride.back();
    if (min_stride % prev != 0 || min_stride / prev == 0) {
      if (min_stride < prev)
        throw LayoutError("complement of " + to_string(l) + ": the layout is not injective (stride " +
                          std::to_string(min_stride) + " falls inside the previous modes, which span " + std::to_string(prev) + ")");
      throw LayoutError("complement of " + to_string(l) + ": stride " + std::to_string(min_stride) +
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
  result_shape.push_back(rest_shape);
  result_stride.push_back(rest_stride);
  return coalesce(Layout::flat(result_shape, result_stride));
}

Layout complement(const Layout& l) { return complement(l, IntTuple(cosize(filter(l)))); }

// ---------------------------------------------------------------------------------------------
// Inverses

namespace {

struct FlatModes {
  std::vector<i64> shape, stride, preprod;  // preprod[i] = shape[0] * ... * shape[i-1]
  std::vector<std::size_t> by_stride;       // mode indices sorted by stride (stable)
};

FlatModes sorted_modes(const Layout& coalesced) {
  FlatModes f{leaves(coalesced.shape), leaves(coalesced.stride), {}, {}};
  i64 p = 1;
  for (i64 s : f.shape) {
    f.preprod.push_back(p);
    p = checked_mul(p, s);
  }
  for (std::size_t i = 0; i < f.shape.size(); ++i) f.by_stride.push_back(i);
  std::stable_sort(f.by_stride.begin(), f.by_stride.end(),
                   [&](std::size_t x, std::size_t y) { return f.stride[x] < f.stride[y]; });
  return f;
}

constexpr i64 kInverseCheckLimit = i64{1} << 16;

}  // namespace

Layout right_inverse(const Layout& l) {
  const FlatModes f = sorted_modes(coalesce(l));
  std::vector<i64> shape{1}, stride{0};
  i64 curr = 1;
  for (std::size_t i : f.by_stride) {  // follow the strides up from 1
    if (f.stride[i] != curr) continue;
    shape.push_back(f.shape[i]);
    stride.push_back(f.preprod[i]);
    curr = checked_mul(f.shape[i], f.stride[i]);
  }
  const Layout r = coalesce(Layout::flat(shape, stride));
  if (size(r) <= kInverseCheckLimit) {  // the definition: L(R(i)) == i
    const std::vector<i64> ro = offsets(r);
    for (i64 i = 0; i < size(r); ++i)
      if (evaluate(l, ro[i]) != i)
        throw LayoutError("right_inverse of " + to_string(l) + ": CuTe's result " + to_string(r) + " breaks L(R(i)) == i at i = " +
                          std::to_string(i));
  }
  return r;
}

Layout left_inverse(const Layout& l) {
  const FlatModes f = sorted_modes(coalesce(l));
  std::vector<i64> shape, stride{0};
  i64 covered = 1;  // size of the shapes appended so far
  for (std::size_t i : f.by_stride) {
    if (f.stride[i] == 0) continue;
    if (f.stride[i] < 0)
      throw LayoutError("left_inverse of " + to_string(l) + ": negative stride " + std::to_string(f.stride[i]) + " is not supported");
    if (f.stride[i] % covered != 0)
      throw LayoutError("left_inverse of " + to_string(l) + ": Left inverse divisibility condition: stride " +
                        std::to_string(f.stride[i]) + " is not a multiple of " + std::to_string(covered) +
                        ", the span of the smaller strides");
    shape.push_back(f.stride[i] / covered);
    stride.push_back(f.preprod[i]);
    covered = checked_mul(covered, shape.back());
  }
  shape.push_back(f.shape[f.by_stride.back()]);
  const Layout r = coalesce(Layout::flat(shape, stride));
  if (size(l) <= kInverseCheckLimit) {  // the definition (a quasi-inverse): L(R(L(i))) == L(i)
    const std::vector<i64> lo = offsets(l);
    for (i64 i = 0; i < size(l); ++i)
      if (evaluate(l, evaluate(r, lo[i])) != lo[i])
        throw LayoutError("left_inverse of " + to_string(l) + ": CuTe's result " + to_string(r) +
                          " breaks L(R(L(i))) == L(i) at i = " + std::to_string(i));
  }
  return r;
}

}  // namespace layoutproof
