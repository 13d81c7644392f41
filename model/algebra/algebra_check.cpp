#include "model/algebra/algebra_check.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_set>

#include "model/algebra/complement_strides.hpp"
#include "model/algebra/composition_digits.hpp"
#include "model/layout/cute_int.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {
namespace {

std::string n(i64 v) { return std::to_string(v); }

// A's value at B's value c: an index when c is an integer, else a coordinate padded with zeros to A's rank.
IntTuple evaluate_at(const Layout& a, const IntTuple& c) {
  if (c.is_leaf() || a.shape.is_leaf() || c.rank() >= a.shape.rank()) return evaluate_coord(a, c);
  std::vector<IntTuple> modes = c.children();
  while (modes.size() < a.shape.rank()) modes.emplace_back(0);
  return evaluate_coord(a, IntTuple::tuple(std::move(modes)));
}

bool has_basis(const Layout& l) {
  for (const IntTuple& d : leaf_nodes(l.stride))
    if (d.is_basis()) return true;
  return false;
}

std::string inexact() { return "CuTe's algorithm divided inexactly"; }

// Decides whether to enumerate a domain of n elements; throws "cannot verify" past the limit.
// `what()` names the check, `untrusted()` why CuTe's theory does not prove the result: both are
// built only for the message (every query runs these checks, few fail them).
template <class What, class Why = std::string (*)()>
bool should_check(i64 n, bool exact, const What& what, const Why& untrusted = inexact) {
  if (n <= kAlwaysCheck) return true;
  if (exact) return false;
  if (n > kCheckLimit)
    throw LayoutError(what() + ": " + untrusted() + " and the domain (" + std::to_string(n) +
                      " elements) is too large to check the result against the definition; layoutproof cannot verify it");
  return true;
}

// check_positive_shapes with the message built only when a mode is not positive.
template <class What>
void positive_shapes(const Layout& r, const What& what) {
  for (const IntTuple& s : leaf_nodes(r.shape))
    if (s.value() < 1) check_positive_shapes(r, what());
}

// L(0), L(1), ... in turn: for_each_offset's odometer (the same arithmetic) as an object, so that two
// layouts advance together and a check stops at its first broken index without storing any offset.
class OffsetStream {
 public:
  explicit OffsetStream(const Layout& l) : s_(leaves(l.shape)), d_(leaves(l.stride)), coord_(s_.size(), 0) {}
  i64 operator*() const { return offset_; }
  void next() {
    for (std::size_t m = 0; m < s_.size(); ++m) {
      if (++coord_[m] < s_[m]) {
        offset_ = checked_add(offset_, d_[m]);
        return;
      }
      offset_ = checked_sub(offset_, checked_mul(coord_[m] - 1, d_[m]));
      coord_[m] = 0;
    }
  }

 private:
  std::vector<i64> s_, d_, coord_;
  i64 offset_ = 0;
};

// Whether every |partial offset| of l, sum of (s - 1) * |d|, fits in 64 bits: then streaming l's
// offsets overflows nowhere, as storing them all first (which would report an overflow before any
// broken index) would not either.
bool offsets_fit(const Layout& l) {
  const std::vector<i64> s = leaves(l.shape), d = leaves(l.stride);
  i64 sum = 0;
  for (std::size_t k = 0; k < s.size(); ++k) {
    i64 term;
    if (s[k] < 1 || d[k] == INT64_MIN || __builtin_mul_overflow(s[k] - 1, d[k] < 0 ? -d[k] : d[k], &term) ||
        __builtin_add_overflow(sum, term, &sum))
      return false;
  }
  return true;
}

// The identity on l's domain in l's profile: c -> c (col-major strides; a size-1 leaf's stride is
// never read). Only for a l whose size was computed, so its products fit.
Layout identity_like(const Layout& l) {
  i64 below = 1;
  const IntTuple stride = map_leaves(l.shape, [&](const IntTuple& s) {
    const IntTuple d(below);
    below = checked_mul(below, s.value());
    return d;
  });
  return raw_layout(l.shape, stride);
}

}  // namespace

void check_positive_shapes(const Layout& r, const std::string& what) {
  for (const IntTuple& s : leaf_nodes(r.shape))
    if (s.value() < 1)
      throw LayoutError(what + ": CuTe's result " + to_cute_string(r) + " has a mode of size " + n(s.value()) +
                        " (\"every mode has a positive size\" fails)");
}

bool compatible(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple() && b.is_tuple()) {
    if (a.rank() != b.rank()) return false;
    for (std::size_t i = 0; i < a.rank(); ++i)
      if (!compatible(a[i], b[i])) return false;
    return true;
  }
  if (a.is_leaf()) return a.value() == product(b);
  return false;
}

void check_composition(const Layout& a, const Layout& b, const Layout& r, bool exact) {
  const auto what = [&] { return "composition " + to_cute_string(a) + " o " + to_cute_string(b); };
  positive_shapes(r, what);
  if (!compatible(b.shape, r.shape))
    throw LayoutError(what() + ": CuTe's result " + to_cute_string(r) + " breaks \"compatible(B, R)\" (R must have B's profile)");
  const i64 size_b = size(b);
  // CuTe's exact divisions prove each mode of B composes right on its own, not their sum: with
  // A = (12,2):(1,100) and B = (3,2,4096):(3,6,0) every mode divides exactly, yet B(5) = 12 crosses
  // A's first mode and R(5) = 12 != A(12) = 100 (hostile case W1). So `exact` is trusted only for
  // a B with one mode of size > 1, or an A whose only mode of size > 1 is its last (A is then
  // linear, the CuTe way: its last mode unbounded, so A(sum) = sum of A's).
  i64 long_modes = 0;
  for (const i64 e : leaves(b.shape)) long_modes += e > 1;
  const std::vector<i64> al = leaves(a.shape);
  const auto a_long = std::count_if(al.begin(), al.end(), [](i64 e) { return e > 1; });
  const bool a_linear = a_long == 0 || (a_long == 1 && al.back() > 1);
  if (a_linear) long_modes = std::min<i64>(long_modes, 1);
  const auto untrusted = [&] {
    return exact && long_modes > 1 ? "B has " + std::to_string(long_modes) + " modes (CuTe's exact divisions prove each mode, not their sum)"
                                   : inexact();
  };
  if (!should_check(size_b, exact && long_modes <= 1 && !has_basis(a) && !has_basis(b), what, untrusted)) return;
  if (composition_holds_by_digits(a, b, r)) return;  // shown on A's digits without visiting B's domain
  const bool plain = !has_basis(a) && !has_basis(b) && !has_basis(r);
  const auto broken = [&](i64 c, const IntTuple& got, const IntTuple& want) {
    throw LayoutError(what() + ": CuTe's result " + to_cute_string(r) + " breaks \"R(c) == A(B(c))\" at c = " + n(c) +
                      ": R(c) = " + to_string(got) + " but A(B(c)) = " + to_string(want));
  };
  if (plain && offsets_fit(b) && offsets_fit(r)) {
    OffsetStream bo(b), ro(r);
    for (i64 c = 0; c < size_b; ++c, bo.next(), ro.next()) {
      const i64 want = evaluate(a, *bo);
      if (*ro != want) broken(c, IntTuple(*ro), IntTuple(want));
    }
    return;
  }
  const std::vector<i64> bo = plain ? offsets(b) : std::vector<i64>{};
  const std::vector<i64> ro = plain ? offsets(r) : std::vector<i64>{};
  for (i64 c = 0; c < size_b; ++c) {
    const IntTuple bc = plain ? IntTuple(bo[c]) : evaluate_coord(b, IntTuple(c));
    const IntTuple want = plain ? IntTuple(evaluate(a, bo[c])) : evaluate_at(a, bc);
    const IntTuple got = plain ? IntTuple(ro[c]) : evaluate_coord(r, IntTuple(c));
    if (!same_coord(got, want)) broken(c, got, want);
  }
}

void check_complement(const Layout& l, const IntTuple& cotarget, const Layout& r, bool exact) {
  const auto what = [&] { return "complement of " + to_cute_string(l) + " for cotarget " + to_cute_string(cotarget); };
  positive_shapes(r, what);
  const auto broken = [&](const std::string& cond, const std::string& detail) {
    throw LayoutError(what() + ": CuTe's result " + to_cute_string(r) + " breaks " + cond + ": " + detail);
  };
  const i64 target = product(cotarget);
  const i64 completed = cosize(raw_layout(IntTuple::tuple({l.shape, r.shape}), IntTuple::tuple({l.stride, r.stride})));
  if (completed < target)
    broken("(1) \"cosize(make_layout(L, R)) >= size(cotarget)\" (it covers the cotarget)", n(completed) + " < " + n(target));
  const i64 size_r = size(r), size_l = size(l);
  if (!should_check(checked_add(size_r, size_l), exact, what)) return;
  if (complement_holds_by_strides(l, r)) return;  // (3) and (4) shown on sorted strides without visiting the offsets
  const std::vector<i64> ro = offsets(r);
  for (i64 i = 1; i < size_r; ++i)
    if (!(ro[i - 1] < ro[i])) broken("(3) \"R(i-1) < R(i)\" (ordered)", "R(" + n(i - 1) + ") = " + n(ro[i - 1]) + ", R(" + n(i) + ") = " + n(ro[i]));
  std::unordered_set<i64> image;
  for_each_offset(l, [&](i64, i64 o) {
    image.insert(o);
    return true;
  });
  for (i64 i = 1; i < size_r; ++i)
    if (image.count(ro[i])) broken("(4) \"R(i) != L(j)\" (disjoint)", "R(" + n(i) + ") = " + n(ro[i]) + " is also an offset of L");
}

void check_right_inverse(const Layout& l, const Layout& r) {
  const auto what = [&] { return "right_inverse of " + to_cute_string(l); };
  positive_shapes(r, what);
  const i64 size_r = size(r);
  if (!should_check(size_r, true, what)) return;  // the chain of exactly matching strides is exact by construction
  if (composition_holds_by_digits(l, r, identity_like(r))) return;  // L(R(c)) == c, shown on L's digits
  const std::vector<i64> ro = offsets(r);
  for (i64 i = 0; i < size_r; ++i)
    if (evaluate(l, ro[i]) != i)
      throw LayoutError(what() + ": CuTe's result " + to_cute_string(r) + " breaks \"L(R(i)) == i\" at i = " + n(i) +
                        ": L(R(i)) = " + n(evaluate(l, ro[i])));
}

void check_left_inverse(const Layout& l, const Layout& r) {
  // A negative stride of L gives R a mode of negative size: left_inverse((_4):(_-1)) = (_-1,_4):(_0,_1)
  // (the "BETA: Negative strides" case of CuTe's unit test). CuTe's arithmetic evaluates R(L(i)) =
  // R(-i) = i although R's domain [0, size(R)) = [0, -4) is empty and holds none of L's offsets: R is
  // no layout, so no left inverse.
  const auto what = [&] { return "left_inverse of " + to_cute_string(l); };
  positive_shapes(r, what);
  const i64 size_l = size(l);
  if (!should_check(size_l, true, what)) return;  // CuTe's static divisibility condition makes it exact
  if (composition_holds_by_digits(r, l, identity_like(l))) return;  // R(L(c)) == c, so L(R(L(c))) == L(c)
  const std::vector<i64> lo = offsets(l);
  for (i64 i = 0; i < size_l; ++i) {
    const i64 back = evaluate(l, evaluate(r, lo[i]));
    if (back != lo[i])
      throw LayoutError(what() + ": CuTe's result " + to_cute_string(r) + " breaks \"L(R(L(i))) == L(i)\" at i = " + n(i) +
                        ": L(i) = " + n(lo[i]) + " but L(R(L(i))) = " + n(back));
  }
}

}  // namespace layoutproof
