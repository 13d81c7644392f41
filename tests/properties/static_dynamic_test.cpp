// Properties of static vs dynamic integers (model/layout/int_tuple.hpp, model/layout/cute_int.hpp):
// staticness changes the structure of CuTe's results, never the function they denote, and CuTe's
// printed text round-trips. Twins: offsets of the all-static result (brute force).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "model/algebra/algebra.hpp"
#include "model/layout/notation.hpp"
#include "properties/check.hpp"
#include "properties/generators.hpp"
#include "tests/properties/helpers.hpp"

namespace layoutproof {
namespace {
using namespace props;

// The layout with the leaves selected by `mask` (bit k: leaf k, shapes then strides) made dynamic.
Layout with_dynamic(const Layout& l, std::uint64_t mask) {
  std::size_t k = 0;
  const auto flip = [&](const IntTuple& leaf) {
    const bool dyn = (mask >> (k++ % 64)) & 1;
    return dyn ? IntTuple::integer(leaf.value(), false) : leaf;
  };
  const IntTuple s = map_leaves(l.shape, flip);
  const IntTuple d = map_leaves(l.stride, flip);
  return Layout(s, d);
}

std::uint64_t mask_gen() { return *rc::gen::arbitrary<std::uint64_t>().as("dynamic mask"); }

// CuTe's text round-trips exactly (staticness included) through Reading::exact.
LP_PROP(StaticDynamic, CuteTextRoundTrips, 1000, (const Layout& l)) {
  const Layout x = with_dynamic(l, mask_gen());
  const Layout back = parse_layout(to_cute_string(x), Reading::exact);
  RC_ASSERT(identical(back.shape, x.shape));
  RC_ASSERT(identical(back.stride, x.stride));
}

// coalesce keeps the function whatever is dynamic; only static modes merge, so the result has at
// least as many modes as the all-static one.
LP_PROP(StaticDynamic, CoalesceSameFunction, 1000, (const Layout& l)) {
  const Layout x = with_dynamic(l, mask_gen());
  const Layout cs = coalesce(l), cx = coalesce(x);
  RC_CLASSIFY(cs.rank() != cx.rank(), "structure differs");
  RC_ASSERT(offsets(cx) == offsets(l));
  RC_ASSERT(cx.rank() >= cs.rank() || cs.shape.is_leaf());
  RC_ASSERT(size(cx) == size(l));
}

// composition: when both the static and the mixed composition are accepted, they are the same
// function on B's domain (each was checked against R(c) == A(B(c))).
LP_PROP(StaticDynamic, CompositionSameFunction, 500, ()) {
  const Layout a = *gen::layouts(gen::compact | gen::padded | gen::permuted, 4, 256).as("A");
  const Layout b = *gen::composable_rhs(a).as("B");
  const Layout ax = with_dynamic(a, mask_gen()), bx = with_dynamic(b, mask_gen());
  Layout rs, rx;
  try {
    rs = composition(a, b);
    rx = composition(ax, bx);
  } catch (const LayoutError&) {
    RC_DISCARD("refused");
  }
  RC_ASSERT(offsets(rs) == offsets(rx));
  for (i64 c = 0; c < size(b); ++c) RC_ASSERT(evaluate(rx, c) == evaluate(a, evaluate(b, c)));
}

// right_inverse drops dynamic strides and follows the static chain only while the running span is
// static: the mixed result is still a right inverse of the same function (brute force), never longer
// than L.
LP_PROP(StaticDynamic, RightInverseLawMixed, 1000, (const Layout& l)) {
  const Layout x = with_dynamic(l, mask_gen());
  const Layout rs = right_inverse(l), rx = right_inverse(x);
  RC_CLASSIFY(size(rx) < size(rs), "shorter");
  RC_CLASSIFY(size(rx) == size(rs), "as long");
  RC_ASSERT(size(rx) <= size(l));
  for (i64 i = 0; i < size(rx); ++i) RC_ASSERT(evaluate(l, evaluate(rx, i)) == i);
}

// max_common_vector: N elements on which A and B agree through B's right inverse (brute force).
LP_PROP(NewOps, MaxCommonVectorAgrees, 500, ()) {
  const Layout a = *gen::layouts(gen::compact | gen::permuted, 3, 256).as("A");
  const Layout b = *rc::gen::element(a, *gen::layouts(gen::compact | gen::permuted, 3, 256)).as("B");
  i64 n = 0;
  try {
    n = max_common_vector(a, b).value();
  } catch (const LayoutError& e) {  // CuTe's own compile-time refusal of A o right_inverse(B)
    RC_ASSERT(std::string(e.what()).find("a compile error in CuTe") != std::string::npos);
    RC_CLASSIFY(true, "CuTe refuses");
    return;
  }
  const Layout inv = right_inverse(b);
  RC_CLASSIFY(n > 1, "vector");
  RC_ASSERT(n >= 1);
  for (i64 i = 0; i < n; ++i) {
    RC_ASSERT(evaluate(a, evaluate(inv, i)) == i);
    RC_ASSERT(evaluate(b, evaluate(inv, i)) == i);
  }
}

// nullspace: exactly the indices whose static-_0 modes vary (brute force count of L(i) == 0 over
// the coordinates with all other modes at 0).
LP_PROP(NewOps, NullspaceMapsToZero, 500, ()) {
  const Layout l = *gen::layouts(gen::broadcast, 4, 512).as("L");
  const Layout k = nullspace(l);
  for (i64 i = 0; i < size(k); ++i) RC_ASSERT(evaluate(l, evaluate(k, i)) == 0);
  RC_ASSERT(size(k) == size(l) / size(filter(l)));
  RC_ASSERT(injective(k));
}

// make_layout_like of an injective layout is compact: a bijection onto [0, size) that orders its
// modes like L's strides.
LP_PROP(NewOps, MakeLayoutLikeIsCompact, 500, ()) {
  const Layout l = *gen::layouts(gen::compact | gen::padded | gen::permuted, 4, 512).as("L");
  const Layout r = make_layout_like(l);
  RC_ASSERT(r.shape == l.shape);
  RC_ASSERT(is_iota_permutation(offsets(filter_zeros(r))));
}

// Swizzled layouts (CuTe swizzle_layout.hpp): inverses and composition with a swizzled second
// argument are CuTe's result or refused; an accepted result meets the definition, re-checked here by
// brute force over the whole domain (independently of model/algebra/algebra_composed.cpp).
LP_PROP(Swizzled, InversesMeetTheirLaws, 500, ()) {
  const Swizzle s = *gen::swizzles().as("Sw");
  const Layout inner = *gen::layouts(gen::compact | gen::permuted | gen::padded, 4, 512).as("L");
  const AnyLayout l(s, 0, inner);
  try {
    const AnyLayout r = right_inverse(l);
    RC_CLASSIFY(true, "right accepted");
    for (i64 i = 0; i < size(r.layout); ++i) RC_ASSERT(evaluate(l, IntTuple(evaluate(r, IntTuple(i)))) == i);
  } catch (const LayoutError&) {
    RC_CLASSIFY(true, "right refused");
  }
  try {
    const AnyLayout r = left_inverse(l);
    for (i64 i = 0; i < size(inner); ++i) {
      const i64 li = evaluate(l, IntTuple(i));
      RC_ASSERT(evaluate(l, IntTuple(evaluate(r, IntTuple(li)))) == li);
    }
  } catch (const LayoutError&) {
    RC_CLASSIFY(true, "left refused");
  }
}

LP_PROP(Swizzled, CompositionWithSwizzledSecond, 500, ()) {
  const Swizzle s = *gen::swizzles().as("Sw");
  const Layout a = *gen::layouts(gen::compact | gen::permuted, 3, 256).as("A");
  const Layout b = *gen::layouts(gen::compact | gen::permuted, 3, 256).as("B inner");
  const AnyLayout bl(s, 0, b);
  try {
    const AnyLayout r = composition(AnyLayout(a), bl);
    RC_CLASSIFY(true, "accepted");
    for (i64 c = 0; c < size(b); ++c) RC_ASSERT(evaluate(r, IntTuple(c)) == evaluate(a, evaluate(bl, IntTuple(c))));
  } catch (const LayoutError&) {
    RC_CLASSIFY(true, "refused");
  }
}

}  // namespace
}  // namespace layoutproof
