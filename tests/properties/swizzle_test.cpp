// Properties of model/layout/swizzle.hpp, model/layout/composed.hpp and model/layout/notation.hpp.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "properties/check.hpp"
#include "properties/generators.hpp"
#include "tests/properties/helpers.hpp"

namespace layoutproof {
namespace {
using namespace props;

// Swizzle @post: apply(apply(x)) == x, for every x below 2^(span+2) and for large random x.
LP_PROP(Swizzle, Involution, 1000, (const Swizzle& s)) {
  RC_CLASSIFY(s.S < 0, "S < 0");
  RC_CLASSIFY(s.B == 0, "B == 0");
  s.validate();
  for (i64 x = 0; x < (i64{1} << (s.span_bits() + 2)); ++x) RC_ASSERT(s(s(x)) == x);
  const i64 big = *rc::gen::inRange<i64>(0, i64{1} << 40);
  RC_ASSERT(s(s(big)) == big);
}

// A bijection on each aligned block of 2^(M+B+|S|) offsets (it only touches those low bits).
LP_PROP(Swizzle, BijectionOnAlignedBlocks, 1000, (const Swizzle& s)) {
  const i64 block = i64{1} << s.span_bits();
  const i64 base = block * *rc::gen::inRange<i64>(0, 1 << 12);
  std::vector<i64> img;
  for (i64 i = 0; i < block; ++i) {
    const i64 y = s(base + i);
    RC_ASSERT(y >= base && y < base + block);
    img.push_back(y - base);
  }
  RC_ASSERT(is_iota_permutation(img));
}

// Keeps 2^M-aligned vectors contiguous: Sw(x + j) == Sw(x) + j for x % 2^M == 0, j < 2^M.
LP_PROP(Swizzle, KeepsAlignedVectorsContiguous, 1000, (const Swizzle& s)) {
  const i64 vec = i64{1} << s.M;
  const i64 x = vec * *rc::gen::inRange<i64>(0, 1 << 16);
  for (i64 j = 0; j < vec; ++j) RC_ASSERT(s(x + j) == s(x) + j);
}

// ComposedLayout: (Sw o OFF o L)(c) == Sw(OFF + L(c)) for every index and every natural coordinate.
LP_PROP(Swizzled, EvaluatesAsSwizzleOfOffsetPlusLayout, 500, (const AnyLayout& l)) {
  const Swizzle& s = *l.swizzle;
  const auto o = offsets(l);
  RC_ASSERT(static_cast<i64>(o.size()) == size(l.layout));
  for (i64 i = 0; i < size(l.layout); ++i) {
    const i64 want = s(l.offset + evaluate(l.layout, i));
    RC_ASSERT(o[static_cast<std::size_t>(i)] == want);
    RC_ASSERT(evaluate(l, IntTuple(i)) == want);
    RC_ASSERT(evaluate(l, idx2crd(IntTuple(i), l.layout.shape)) == want);
  }
}

// Notation: parse(to_string(x)) == x for int tuples, layouts, swizzles and swizzled layouts.
LP_PROP(Notation, PrintParseRoundTrip, 1000, (const Layout& l, const AnyLayout& sl)) {
  RC_ASSERT(parse_int_tuple(to_string(l.shape)) == l.shape);
  RC_ASSERT(parse_layout(to_string(l)) == l);
  RC_ASSERT(parse_swizzle(to_string(*sl.swizzle)) == *sl.swizzle);
  const AnyLayout back = parse_any_layout(to_string(sl));
  RC_ASSERT(back.swizzle.has_value());
  RC_ASSERT(*back.swizzle == *sl.swizzle);
  RC_ASSERT(back.offset == sl.offset);
  RC_ASSERT(back.layout == sl.layout);
  RC_ASSERT(to_string(back) == to_string(sl));
}

}  // namespace
}  // namespace layoutproof
