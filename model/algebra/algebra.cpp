#include "model/algebra/algebra.hpp"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <string>

#include "model/algebra/algebra_check.hpp"
#include "model/layout/cute_int.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {

namespace ci = cute_int;

// ---------------------------------------------------------------------------------------------
// Coalesce and filter

namespace {

struct Mode {
  IntTuple shape, stride;
};

// CuTe's detail::bw_coalesce over the flat modes [0, last], starting from `init` (an integer mode):
// walk the old modes backwards, looking at each and the front of the new layout:
//   old _1:d1                          -> skip (static 1 only; a run-time 1 is kept)
//   front is the integer mode _1:d0    -> replace it by the old mode
//   front s0 static, s1*d1 == d0 static-true -> merge into s1*s0:d1
//   otherwise                          -> prepend s1:d1
// A front that is still the integer _1 at the end gives _1:_0.
Layout bw_coalesce(const std::vector<IntTuple>& s, const std::vector<IntTuple>& d, int last, Mode init) {
  std::deque<Mode> front{std::move(init)};
  bool integer = true;  // the front is still a single integer mode (not a tuple)
  for (int i = last; i >= 0; --i) {
    if (s[i].is_constant(1)) continue;
    if (integer && front[0].shape.is_constant(1)) {
      front[0] = {s[i], d[i]};
    } else if (front[0].shape.is_static() && ci::static_equal(ci::mul(s[i], d[i]), front[0].stride)) {
      front[0] = {ci::mul(s[i], front[0].shape), d[i]};
    } else {
      front.push_front({s[i], d[i]});
      integer = false;
    }
  }
  if (integer) {
    if (front[0].shape.is_constant(1)) return Layout(1, 0);
    return raw_layout(front[0].shape, front[0].stride);
  }
  std::vector<IntTuple> shapes, strides;
  for (const Mode& m : front) {
    shapes.push_back(m.shape);
    strides.push_back(m.stride);
  }
  return raw_layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides)));
}

Layout coalesce_flat(const Layout& l, bool keep_outside_domain) {
  const std::vector<IntTuple> s = leaf_nodes(l.shape), d = leaf_nodes(l.stride);
  if (s.empty()) throw LayoutError("coalesce: empty layout ()");
  const int r = static_cast<int>(s.size());
  Mode init{s[r - 1], d[r - 1]};
  if (keep_outside_domain && init.shape.is_constant(1)) init.shape = IntTuple(2);
  return bw_coalesce(s, d, r - 2, init);
}

// transform_layout(L, profile, f): f on the modes the profile names, the rest of L kept.
template <class F>
Layout by_profile(const char* op, const Layout& l, const IntTuple& profile, F&& f) {
  if (profile.rank() > l.rank())
    throw LayoutError(std::string(op) + ": profile rank " + std::to_string(profile.rank()) + " exceeds layout rank " +
                      std::to_string(l.rank()));
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < l.rank(); ++i) modes.push_back(i < profile.rank() ? f(l.mode(i), profile[i]) : l.mode(i));
  return concat_layouts(modes);
}

}  // namespace

Layout coalesce(const Layout& l) { return coalesce_flat(l, false); }

Layout coalesce_x(const Layout& l) { return coalesce_flat(l, true); }

Layout coalesce(const Layout& l, const IntTuple& profile) {
  if (profile.is_leaf()) return coalesce(l);
  return by_profile("coalesce", l, profile, [](const Layout& m, const IntTuple& p) { return coalesce(m, p); });
}

Layout coalesce_x(const Layout& l, const IntTuple& profile) {
  if (profile.is_leaf()) return coalesce_x(l);
  return by_profile("coalesce", l, profile, [](const Layout& m, const IntTuple& p) { return coalesce_x(m, p); });
}

Layout filter_zeros(const Layout& l) {
  const std::vector<IntTuple> d = leaf_nodes(l.stride);
  std::size_t k = 0;
  IntTuple shape = map_leaves(l.shape, [&](const IntTuple& s) { return d[k++].is_constant(0) ? IntTuple(1) : s; });
  return raw_layout(shape, l.stride);
}

Layout filter(const Layout& l) { return coalesce(filter_zeros(l)); }

// ---------------------------------------------------------------------------------------------
// Composition

namespace {

struct CompositionContext {
  const Layout& a;
  const Layout& b;
  mutable bool exact = true;  // every division of CuTe's algorithm was exact (then its theory proves the result)
  [[noreturn]] void fail(const std::string& why) const {
    throw LayoutError("composition " + to_cute_string(a) + " o " + to_cute_string(b) + ": " + why);
  }
};

std::string t(const IntTuple& x) { return to_cute_string(x); }

// detail::composition_impl of CuTe 4.x for a coalesced lhs and one rhs mode: walk the lhs modes,
// dividing the rhs stride out of each shape (rounding up) and taking rhs shape elements from
// what remains:
//   next_shape  = ceil_div(curr_shape, |rest_stride|), next_stride = ceil_div(|rest_stride|, curr_shape) * signum(rest_stride)
//   new_shape   = min(next_shape, rest_shape), appended with stride rest_stride * curr_stride
// CuTe checks its two divisibility conditions only where both operands are static (a compile
// error otherwise), and never at run time: those are the "weak" conditions below.
Layout compose_impl(const CompositionContext& ctx, const IntTuple& lshape, const IntTuple& lstride, const IntTuple& rshape,
                    const IntTuple& rstride) {
  if (rshape.is_tuple()) {  // right-distributivity over the modes of B
    std::vector<Layout> modes;
    for (std::size_t i = 0; i < rshape.rank(); ++i) modes.push_back(compose_impl(ctx, lshape, lstride, rshape[i], rstride[i]));
    return concat_layouts(modes);
  }
  if (rstride.is_basis()) {  // a basis stride picks the lhs mode it names
    IntTuple s = lshape, d = lstride;
    for (int p : rstride.basis_path()) {
      if (static_cast<std::size_t>(p) >= s.rank() || (s.is_leaf() && p != 0))
        ctx.fail("the basis stride " + t(rstride) + " names a mode the left layout does not have");
      s = IntTuple(s[p]);
      d = IntTuple(d[p]);
    }
    return compose_impl(ctx, s, d, rshape, IntTuple::integer(rstride.scale(), rstride.is_static()));
  }
  if (rstride.is_constant(0)) return raw_layout(rshape, rstride);
  if (lshape.is_leaf()) return raw_layout(rshape, ci::mul(rstride, lstride));

  // A run-time division by zero is undefined behaviour in CuTe: nvcc's build crashes on it (an
  // optimizing host compiler may drop one whose value is unused), so any one is refused at once.
  const std::size_t R = lshape.rank();
  std::vector<IntTuple> result_shape, result_stride;
  IntTuple rest_shape = rshape, rest_stride = rstride;
  for (std::size_t i = 0; i + 1 < R; ++i) {
    const IntTuple& curr_shape = lshape[i];
    const IntTuple& curr_stride = lstride[i];
    const i64 a = std::llabs(rest_stride.value()), c = curr_shape.value();
    if (curr_shape.is_static() && rest_stride.is_static() && c != 0 && !(rest_stride.value() % c == 0 || rest_stride.value() < c))
      ctx.fail("CuTe's static \"Stride Divisibility Condition\" fails: the remaining stride " + t(rest_stride) +
               " is neither a multiple of nor smaller than mode " + std::to_string(i) + " (shape " + t(curr_shape) +
               ") of the coalesced left layout (a compile error in CuTe)");
    if (c == 0) ctx.fail("mode " + std::to_string(i) + " has a run-time size 0 (a division by zero: CuTe crashes)");
    const IntTuple abs_stride = ci::abs(rest_stride);
    const IntTuple next_stride = ci::mul(ci::ceil_div(abs_stride, curr_shape), ci::signum(rest_stride));
    // With a static _1 rest, CuTe's compile-time branch never reads next_shape: a run-time stride 0
    // divides nothing then (the dead division is not executed in CuTe's optimized builds).
    if (rest_shape.is_constant(1)) {
      rest_stride = next_stride;
      continue;
    }
    if (a == 0) ctx.fail("mode " + std::to_string(i) + " is divided by a run-time stride 0 (a division by zero: CuTe crashes)");
    if (c % a != 0 && a % c != 0) ctx.exact = false;
    const IntTuple next_shape = ci::ceil_div(curr_shape, abs_stride);
    if (next_shape.is_constant(1)) {
      rest_stride = next_stride;
      continue;
    }
    const IntTuple new_shape = ci::min(next_shape, rest_shape);
    if (new_shape.value() == 0) ctx.fail("a mode of size 0 divides the rest (a division by zero: CuTe crashes)");
    if (rest_shape.value() % new_shape.value() != 0) {
      if (new_shape.is_static() && rest_shape.is_static())
        ctx.fail("CuTe's static \"Shape Divisibility Condition\" fails: the remaining size " + t(rest_shape) +
                 " is not a multiple of " + t(new_shape) + ", what mode " + std::to_string(i) + " (shape " + t(curr_shape) +
                 ") of the coalesced left layout offers (a compile error in CuTe)");
      ctx.exact = false;
    }
    result_shape.push_back(new_shape);
    result_stride.push_back(ci::mul(rest_stride, curr_stride));
    rest_shape = ci::div(rest_shape, new_shape);
    rest_stride = next_stride;
  }
  if (result_shape.empty()) return raw_layout(rest_shape, ci::mul(rest_stride, lstride[R - 1]));
  if (rest_shape.is_constant(1)) {
    if (result_shape.size() == 1) return raw_layout(result_shape[0], result_stride[0]);
    return raw_layout(IntTuple::tuple(std::move(result_shape)), IntTuple::tuple(std::move(result_stride)));
  }
  result_shape.push_back(rest_shape);
  result_stride.push_back(ci::mul(rest_stride, lstride[R - 1]));
  return raw_layout(IntTuple::tuple(std::move(result_shape)), IntTuple::tuple(std::move(result_stride)));
}

// Adds one basis path to a coprofile: the modes it names exist (as _0 leaves) afterwards.
IntTuple merge_basis_profile(const IntTuple& profile, const std::vector<int>& path, std::size_t at) {
  // Leaves: 0 = a mode nothing names yet (CuTe's _0 padding), 1 = a mode a basis ends at.
  const auto conflict = [] { throw LayoutError("basis strides name both a mode and one of its sub-modes (CuTe cannot add them)"); };
  if (at == path.size()) {
    if (profile.is_tuple()) conflict();
    return IntTuple(1);
  }
  if (profile.is_leaf() && profile.value() == 1) conflict();
  std::vector<IntTuple> modes;
  if (profile.is_tuple()) modes = profile.children();
  const std::size_t k = static_cast<std::size_t>(path[at]);
  while (modes.size() <= k) modes.emplace_back(0);
  modes[k] = merge_basis_profile(modes[k], path, at + 1);
  return IntTuple::tuple(std::move(modes));
}

// CuTe's coprofile(B): the profile of the sum of B's strides as an arithmetic tuple. Integer strides
// sum to an integer (profile _0: coalesce A fully); basis strides give one mode per basis index.
IntTuple coprofile(const CompositionContext& ctx, const Layout& b) {
  IntTuple profile;  // a leaf: an integer so far
  bool any_basis = false, any_int = false;
  for (const IntTuple& d : leaf_nodes(b.stride)) {
    if (!d.is_basis()) {
      if (!d.is_constant(0)) any_int = true;
      continue;
    }
    any_basis = true;
    profile = merge_basis_profile(profile, d.basis_path(), 0);
  }
  if (any_basis && any_int)
    ctx.fail("the right layout mixes basis strides and integer strides (their sum does not exist in CuTe)");
  return profile;
}

}  // namespace

namespace {

// CuTe's composition; `check` runs the definition check (model/algebra/algebra_check.hpp).
Layout compose(const Layout& a, const Layout& b, bool check) {
  const CompositionContext ctx{a, b};
  const IntTuple profile = coprofile(ctx, b);
  const Layout flat = coalesce_x(a, profile);
  const Layout result = compose_impl(ctx, flat.shape, flat.stride, b.shape, b.stride);
  if (check) check_composition(a, b, result, ctx.exact);
  return result;
}

Layout compose(const Layout& a, const Tiler& b, bool check) {
  switch (b.kind) {
    case Tiler::Kind::layout:
      return compose(a, b.layout, check);
    case Tiler::Kind::integer: {  // composition_impl(coalesce_x(A), n, _1)
      const Layout tile = raw_layout(IntTuple::integer(b.integer, b.integer_static), IntTuple(1));
      const CompositionContext ctx{a, tile};
      const Layout flat = coalesce_x(a);
      const Layout result = compose_impl(ctx, flat.shape, flat.stride, tile.shape, tile.stride);
      if (check) check_composition(a, tile, result, ctx.exact);
      return result;
    }
    case Tiler::Kind::underscore:
      return a;
    case Tiler::Kind::tuple: {
      if (b.modes.size() > a.rank())
        throw LayoutError("composition: tiler has " + std::to_string(b.modes.size()) + " modes but the layout " +
                          to_cute_string(a) + " has rank " + std::to_string(a.rank()));
      std::vector<Layout> modes;
      for (std::size_t i = 0; i < b.modes.size(); ++i) modes.push_back(compose(a.mode(i), b.modes[i], check));
      return concat_layouts(modes);  // modes of A beyond the tiler are dropped (CuTe C++)
    }
  }
  throw LayoutError("composition: unknown tiler");
}

}  // namespace

Layout composition(const Layout& a, const Layout& b) { return compose(a, b, true); }
Layout composition(const Layout& a, const Tiler& b) { return compose(a, b, true); }
Layout composition_cute(const Layout& a, const Layout& b) { return compose(a, b, false); }
Layout composition_cute(const Layout& a, const Tiler& b) { return compose(a, b, false); }

// ---------------------------------------------------------------------------------------------
// Complement

namespace {

[[noreturn]] void complement_fail(const Layout& l, const IntTuple& cotarget, const std::string& why) {
  throw LayoutError("complement of " + to_cute_string(l) + " for cotarget " + to_cute_string(cotarget) + ": " + why);
}

// detail::complement of CuTe 4.x on a filtered layout: repeatedly take the mode of smallest stride
// (the first one on ties); its gap below is new_shape = min_stride / last_result_stride, and the
// next result stride is min_stride * its shape. The rest up to the cotarget follows.
Layout complement_impl(const Layout& l, const Layout& f, const IntTuple& cotarget, bool& exact) {
  if (f.stride.is_constant(0)) return make_compact_layout(ci::coalesce_shape(cotarget));
  std::vector<IntTuple> shape = f.shape.is_leaf() ? std::vector<IntTuple>{f.shape} : f.shape.children();
  std::vector<IntTuple> stride = f.stride.is_leaf() ? std::vector<IntTuple>{f.stride} : f.stride.children();
  const std::size_t R = shape.size();
  if (R > 1 && !f.stride.is_static())
    complement_fail(l, cotarget, "CuTe's \"Dynamic-stride complement only for rank-1 layouts\" (a compile error in CuTe)");
  for (const IntTuple& d : stride)
    if (d.is_basis()) complement_fail(l, cotarget, "basis strides have no complement");
  std::vector<IntTuple> result_shape, result_stride{IntTuple(1)};
  for (std::size_t i = 0; i + 1 < R; ++i) {
    std::size_t k = 0;  // cute::min, then cute::find: the first mode with the smallest stride
    for (std::size_t j = 1; j < stride.size(); ++j)
      if (stride[j].value() < stride[k].value()) k = j;
    if (result_stride[i].value() == 0) complement_fail(l, cotarget, "division by zero (a run-time stride 0)");
    if (stride[k].value() % result_stride[i].value() != 0) exact = false;
    const IntTuple new_shape = ci::div(stride[k], result_stride[i]);
    if (new_shape.is_constant(0))
      complement_fail(l, cotarget, "CuTe's \"Non-injective Layout detected in complement.\" (a compile error in CuTe)");
    result_shape.push_back(new_shape);
    result_stride.push_back(ci::mul(stride[k], shape[k]));
    shape.erase(shape.begin() + static_cast<long>(k));
    stride.erase(stride.begin() + static_cast<long>(k));
  }
  if (result_stride[R - 1].value() == 0) complement_fail(l, cotarget, "division by zero (a run-time stride 0)");
  if (stride[0].value() % result_stride[R - 1].value() != 0) exact = false;
  const IntTuple new_shape = ci::div(stride[0], result_stride[R - 1]);
  if (new_shape.is_constant(0))
    complement_fail(l, cotarget, "CuTe's \"Non-injective Layout detected in complement.\" (a compile error in CuTe)");
  result_shape.push_back(new_shape);
  const IntTuple new_stride = ci::mul(stride[0], shape[0]);
  if (new_stride.value() == 0) complement_fail(l, cotarget, "division by zero (a run-time stride 0)");
  const IntTuple rest_shape = ci::coalesce_shape(ci::ceil_div_tuple(cotarget, new_stride));
  const IntTuple rest_stride = ci::compact_col_major(rest_shape, new_stride);
  const Layout whole = raw_layout(IntTuple::tuple({IntTuple::tuple(std::move(result_shape)), rest_shape}),
                                  IntTuple::tuple({IntTuple::tuple(std::move(result_stride)), rest_stride}));
  return coalesce(whole);
}

}  // namespace

Layout complement_cute(const Layout& l, const IntTuple& cotarget) {
  bool exact = true;
  return complement_impl(l, filter(l), cotarget, exact);
}

Layout complement(const Layout& l, const IntTuple& cotarget) {
  bool exact = true;
  const Layout result = complement_impl(l, filter(l), cotarget, exact);
  check_complement(l, cotarget, result, exact);
  return result;
}

Layout complement(const Layout& l) {
  const Layout f = filter(l);
  return complement(l, cosize_cute(f));
}

}  // namespace layoutproof
