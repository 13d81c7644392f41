// Properties of model/algebra/algebra.hpp: coalesce, composition, complement, right/left inverse.
// Each property names the identity it checks (CuTe layout.hpp @post or an algebra law).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "properties/check.hpp"
#include "properties/generators.hpp"
#include "tests/properties/helpers.hpp"

namespace layoutproof {
namespace {
using namespace props;

// coalesce @post: result(i) == L(i) for i < size(L), size kept, depth(result) <= 1, and the rank
// never rises above the number of leaves (flattened rank); coalesce is idempotent.
LP_PROP(Coalesce, KeepsFunctionAndFlattens, 1000, (const Layout& l)) {
  const Layout c = coalesce(l);
  RC_CLASSIFY(depth(l) == 0, "depth 0");
  RC_CLASSIFY(depth(l) >= 2, "nested");
  RC_CLASSIFY(c.rank() < leaves(l.shape).size(), "rank dropped");
  RC_ASSERT(size(c) == size(l));
  RC_ASSERT(offsets(c) == offsets(l));
  RC_ASSERT(depth(c) <= 1);
  RC_ASSERT(c.rank() <= leaves(l.shape).size());
  if (depth(l) <= 1) RC_ASSERT(c.rank() <= l.rank());
  RC_ASSERT(coalesce(c) == c);
}

// coalesce(L, profile) by mode: the function is kept, and so is the rank of L (modes past the
// profile kept as they are).
LP_PROP(Coalesce, ByModeKeepsFunctionAndRank, 500, (const Layout& l)) {
  RC_PRE(l.shape.is_tuple());
  const IntTuple profile = IntTuple::tuple(std::vector<IntTuple>(
      static_cast<std::size_t>(*rc::gen::inRange<int>(1, static_cast<int>(l.rank()) + 1)), IntTuple(1)));
  const Layout c = coalesce(l, profile);
  RC_ASSERT(c.rank() == l.rank());
  RC_ASSERT(offsets(c) == offsets(l));
}

// compatible(a, b): a leaf of a matches a sub-tree of b of the same size (CuTe int_tuple.hpp).
bool compatible(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf()) return a.value() == product(b);
  if (b.is_leaf() || a.rank() != b.rank()) return false;
  for (std::size_t i = 0; i < a.rank(); ++i)
    if (!compatible(a[i], b[i])) return false;
  return true;
}

// composition @post: compatible(B, A o B) (B's profile) and (A o B)(i) == A(B(i)) for every i.
LP_PROP(Composition, EvaluatesAsAofB, 1000, ()) {
  const Layout a = *gen::layouts().as("A");
  const Layout b = *gen::composable_rhs(a).as("B");
  RC_CLASSIFY(b.shape.is_tuple(), "B tuple");
  RC_CLASSIFY(depth(a) >= 2, "A nested");
  const Layout r = composition(a, b);  // a LayoutError here is a finding: B was built admissible
  RC_ASSERT(compatible(b.shape, r.shape));
  RC_ASSERT(size(r) == size(b));
  const auto bo = offsets(b);
  const auto ro = offsets(r);
  for (std::size_t i = 0; i < bo.size(); ++i) RC_ASSERT(ro[i] == evaluate(a, bo[i]));
}

// Associativity: ((A o B) o C)(i) == (A o (B o C))(i) wherever both are defined and C(i) lies in
// B's domain [0, size(B)) (A o B equals A(B(x)) only there: beyond it, A o B extends on its own).
LP_PROP(Composition, Associative, 1000, ()) {
  const Layout a = *gen::layouts().as("A");
  const Layout b = *gen::composable_rhs(a).as("B");
  const Layout c = *gen::composable_rhs(b).as("C");
  const Layout ab = composition(a, b);
  Layout left, right;
  try {
    left = composition(ab, c);
    right = composition(a, composition(b, c));
  } catch (const LayoutError&) {
    RC_TAG("one side not admissible");
    return;
  }
  RC_TAG("both defined");
  const auto lo = offsets(left), ro = offsets(right), co = offsets(c);
  std::size_t compared = 0;
  for (std::size_t i = 0; i < co.size(); ++i)
    if (co[i] >= 0 && co[i] < size(b)) {
      ++compared;
      RC_ASSERT(lo[i] == ro[i]);
    }
  RC_CLASSIFY(compared == co.size(), "C maps into B's domain");
}

// complement @post: result(i) increasing ("ordered"), disjoint from L's image for i >= 1,
// size(result) >= cotarget / size(filter(L)); and make_layout(L', L*) with L' = filter(L) is a
// bijection onto [0, its cosize), which covers the cotarget.
// complement: CuTe's result or a refusal naming what it breaks. Twin: the definition recomputed by
// brute force on complement_cute's raw result. Accepted results are ordered (3) and disjoint (4),
// cover the cotarget (1); for complementable L (sorted strides
// divisible) and a cotarget that is a multiple of cosize(L), (L, C) is a bijection (below).
LP_PROP(Complement, CuTeResultOrNamedRefusal, 1000, ()) {
  const Layout l = *gen::layouts(gen::compact | gen::padded | gen::permuted | gen::broadcast).as("L");
  const Layout f = filter(l);
  const i64 cotarget = cosize(f) * *rc::gen::inRange<i64>(1, 4) + *rc::gen::inRange<i64>(0, 3);
  RC_LOG() << "cotarget = " << cotarget << "\n";
  RC_CLASSIFY(size(f) == 1, "L all broadcast");
  RC_CLASSIFY(cosize(f) != size(f), "L has gaps");
  const Layout raw = complement_cute(l, IntTuple(cotarget));
  const Layout both = Layout::concat({l, raw});
  const auto ro = offsets(raw);
  const auto lo = sorted(offsets(l));
  std::string broken;
  if (cosize(both) < cotarget) broken = "(1)";
  for (std::size_t i = 1; i < ro.size() && broken.empty(); ++i)
    if (!(ro[i - 1] < ro[i])) broken = "(3)";
  for (std::size_t i = 1; i < ro.size() && broken.empty(); ++i)
    if (std::binary_search(lo.begin(), lo.end(), ro[i])) broken = "(4)";
  RC_CLASSIFY(!broken.empty(), "refused");
  try {
    const Layout c = complement(l, IntTuple(cotarget));
    RC_ASSERT(broken.empty());
    RC_ASSERT(c == raw);
  } catch (const LayoutError& e) {
    RC_ASSERT(!broken.empty());
    RC_ASSERT(std::string(e.what()).find(broken) != std::string::npos);
  }
}

// For complementable L (admissible: injective, sorted strides divide) and a cotarget that is a
// multiple of cosize(L), (L, complement(L, cotarget)) is a bijection onto [0, size) covering the
// cotarget.
LP_PROP(Complement, AdmissibleCompletesToBijection, 500, ()) {
  const Layout l = *gen::admissible().as("L");
  const i64 cotarget = cosize(filter(l)) * *rc::gen::inRange<i64>(1, 4);
  const Layout c = complement(l, IntTuple(cotarget));
  const auto all = offsets(Layout::concat({filter(l), c}));
  RC_ASSERT(static_cast<i64>(all.size()) >= cotarget);
  RC_ASSERT(is_iota_permutation(all));
}

// right_inverse @post: L(R(i)) == i for i < size(R); for a bijective (compact permuted) L,
// size(R) == size(L) ("the largest").
LP_PROP(Inverse, RightInverseLaw, 1000, ()) {
  const Layout l = *gen::layouts(gen::compact | gen::padded | gen::permuted | gen::broadcast).as("L");
  const Layout r = right_inverse(l);
  RC_CLASSIFY(size(r) == size(l), "full");
  for (i64 i = 0; i < size(r); ++i) RC_ASSERT(evaluate(l, evaluate(r, i)) == i);
  if (is_iota_permutation(offsets(l))) RC_ASSERT(size(r) == size(l));
}

// left_inverse @post: R(L(i)) == i for i < size(L), for injective L.
LP_PROP(Inverse, LeftInverseLaw, 1000, ()) {
  const Layout l = *gen::admissible().as("L");
  const Layout r = left_inverse(l);
  for (i64 i = 0; i < size(l); ++i) RC_ASSERT(evaluate(r, evaluate(l, i)) == i);
}

}  // namespace
}  // namespace layoutproof
