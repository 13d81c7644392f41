// Properties of model/algebra/tiling.hpp: divides and products.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "model/algebra/tiling.hpp"
#include "properties/check.hpp"
#include "properties/generators.hpp"
#include "tests/properties/helpers.hpp"

namespace layoutproof {
namespace {
using namespace props;

Layout tile_layout(const Tiler& t) { return t.kind == Tiler::Kind::integer ? Layout(t.integer, 1) : t.layout; }

// logical_divide(L, T) = L o (T, complement(T, shape(L))) (CuTe layout.hpp):
//   size(result) == size(L); (T, T*) is a bijection of L's domain, so the result's image is a
//   permutation of L's; result(i) == L((T,T*)(i)); mode 0 == L o T. By mode for a tuple tiler.
void check_divide_mode(const Layout& l, const Tiler& t, const Layout& d) {
  if (t.kind == Tiler::Kind::underscore) {
    RC_ASSERT(d == l);
    return;
  }
  const Layout tile = tile_layout(t);
  const Layout both = Layout::concat({tile, complement(tile, l.shape)});
  RC_ASSERT(size(d) == size(l));
  RC_ASSERT(is_iota_permutation(offsets(both)));
  RC_ASSERT(sorted(offsets(d)) == sorted(offsets(l)));
  const auto bo = offsets(both);
  const auto dofs = offsets(d);
  for (std::size_t i = 0; i < bo.size(); ++i) RC_ASSERT(dofs[i] == evaluate(l, bo[i]));
  RC_ASSERT(same_function(d.mode(0), composition(l, tile)));
}

LP_PROP(Divide, LogicalDivideIdentities, 1000, ()) {
  const Layout l = *gen::layouts().as("L");
  const Tiler t = *gen::divide_tiler(l).as("T");
  RC_CLASSIFY(t.is_tuple(), "by-mode");
  RC_CLASSIFY(t.kind == Tiler::Kind::integer, "integer");
  const Layout d = logical_divide(l, t);
  RC_ASSERT(size(d) == size(l));
  if (!t.is_tuple()) return check_divide_mode(l, t, d);
  RC_ASSERT(d.rank() == l.rank());
  for (std::size_t i = 0; i < l.rank(); ++i) {
    if (i < t.modes.size()) check_divide_mode(l.mode(i), t.modes[i], d.mode(i));
    else RC_ASSERT(d.mode(i) == l.mode(i));
  }
}

// zipped = ((tile_0, tile_1, ...), (rest_0, rest_1, ..., extra modes of L)) and tiled = the same
// with the rest unpacked (a rest of rank 1 stays as it is): regroupings of logical_divide's modes,
// written here independently of tiling.cpp. For a whole-layout tiler zipped == logical.
Layout expected_zipped(const Layout& logical, const Tiler& t) {
  if (!t.is_tuple()) return logical;
  std::vector<Layout> first, second;
  for (std::size_t i = 0; i < t.modes.size(); ++i) {
    first.push_back(logical.mode(i).mode(0));
    second.push_back(logical.mode(i).mode(1));
  }
  for (std::size_t i = t.modes.size(); i < logical.rank(); ++i) second.push_back(logical.mode(i));
  return Layout::concat({Layout::concat(first), Layout::concat(second)});
}
Layout expected_tiled(const Layout& zipped) {
  const Layout rest = zipped.mode(1);
  if (rest.rank() == 1) return zipped;
  std::vector<Layout> modes{zipped.mode(0)};
  for (std::size_t i = 0; i < rest.rank(); ++i) modes.push_back(rest.mode(i));
  return Layout::concat(modes);
}

LP_PROP(Divide, ZippedAndTiledRegroupLogical, 500, ()) {
  const Layout l = *gen::layouts().as("L");
  const Tiler t = *gen::zipped_tiler(l).as("T");
  const Layout logical = logical_divide(l, t);
  const Layout z = zipped_divide(l, t);
  RC_ASSERT(z == expected_zipped(logical, t));
  RC_ASSERT(tiled_divide(l, t) == expected_tiled(z));
  RC_ASSERT(sorted(leaves(z.shape)) == sorted(leaves(logical.shape)));
}

// logical_product(A, B) = (A, complement(A, size(A)*cosize(B)) o B):
//   size == size(A)*size(B); mode 0 == A; mode 1 == A* o B as functions.
// A is compact (a permutation of [0,size)), so A* is one mode and A* o B is always admissible.
LP_PROP(Product, LogicalProductIdentities, 1000, ()) {
  const Layout a = *gen::layouts(gen::compact | gen::permuted, 3, 64).as("A");
  const Layout b = *gen::layouts(gen::compact | gen::padded | gen::permuted | gen::broadcast, 3, 64).as("B");
  const Layout p = logical_product(a, Tiler::of(b));
  RC_ASSERT(size(p) == size(a) * size(b));
  RC_ASSERT(p.mode(0) == a);
  const Layout ac = complement(a, IntTuple(size(a) * cosize(b)));
  RC_ASSERT(same_function(p.mode(1), composition(ac, b)));
  // (A, A*) tiles [0, size(A)*cosize(B)): the image of the product is A's image plus multiples.
  const auto po = offsets(p);
  const auto ao = offsets(a), bo = offsets(b);
  for (std::size_t j = 0; j < bo.size(); ++j)
    for (std::size_t i = 0; i < ao.size(); ++i) RC_ASSERT(po[j * ao.size() + i] == ao[i] + size(a) * bo[j]);
  // zipped/tiled of a whole-layout tiler are the logical product itself.
  RC_ASSERT(zipped_product(a, Tiler::of(b)) == p);
  RC_ASSERT(tiled_product(a, Tiler::of(b)) == expected_tiled(p));
}

// append<R>(L): L padded with 1:0 modes up to rank R.
Layout blocked_pad(const Layout& l, std::size_t r) {
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < l.rank(); ++i) modes.push_back(l.mode(i));
  while (modes.size() < r) modes.emplace_back(1, 0);
  return Layout::concat(modes);
}

// blocked_product / raked_product: rank max(rank A, rank B), size(A)*size(B), and the image is a
// permutation of logical_product(A, B)'s image (a regrouping of the same modes).
LP_PROP(Product, BlockedAndRakedPermuteLogical, 1000, ()) {
  const Layout a = *gen::layouts(gen::compact | gen::permuted, 3, 64).as("A");
  const Layout b = *gen::layouts(gen::compact | gen::padded | gen::permuted | gen::broadcast, 3, 64).as("B");
  // CuTe zips mode 0 and mode 1 of the logical product (of A and B padded to a common rank); the
  // zip exists when its first operand is an integer or both are tuples of the same rank. Otherwise
  // CuTe does not compile and the model refuses.
  const Layout logical = logical_product(a, Tiler::of(b));
  const auto image = sorted(offsets(logical));
  const std::size_t rank = std::max(a.rank(), b.rank());
  const Layout pa = rank == a.rank() ? a : blocked_pad(a, rank), pb = rank == b.rank() ? b : blocked_pad(b, rank);
  const Layout padded = logical_product(pa, Tiler::of(pb));
  for (bool raked : {false, true}) {
    const Layout first = padded.mode(raked ? 1 : 0), second = padded.mode(raked ? 0 : 1);
    if (!first.shape.is_leaf() && (second.shape.is_leaf() || first.rank() != second.rank())) {
      RC_ASSERT_THROWS_AS(raked ? raked_product(a, b) : blocked_product(a, b), LayoutError);
      continue;
    }
    const Layout r = raked ? raked_product(a, b) : blocked_product(a, b);
    RC_LOG() << (raked ? "raked = " : "blocked = ") << to_string(r) << "\n";
    RC_ASSERT(r.rank() == rank);
    RC_ASSERT(size(r) == size(a) * size(b));
    RC_ASSERT(sorted(offsets(r)) == image);
  }
}

}  // namespace
}  // namespace layoutproof
