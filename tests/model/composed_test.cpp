// Tests for model/composed.hpp: swizzled layouts Sw o OFFSET o L, c -> Sw(OFFSET + L(c)).
#include "model/composed.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "model/notation.hpp"

namespace layoutproof {
namespace {

TEST(Composed, EvaluateIsSwizzleOfOffsetPlusInner) {
  for (const char* text : {"Sw<3,3,3> o 0 o (8,64):(64,1)", "Sw<2,1,3> o 5 o (4,(2,8)):(16,(1,2))",
                           "Sw<1,0,-2> o 3 o 16:1", "Sw<3,4,3> o 0 o (8,64):(64,2)"}) {
    SCOPED_TRACE(text);
    const AnyLayout l = parse_any_layout(text);
    ASSERT_TRUE(l.is_swizzled());
    const auto o = offsets(l);
    ASSERT_EQ(static_cast<i64>(o.size()), size(l.layout));
    i64 mx = 0;
    for (i64 i = 0; i < size(l.layout); ++i) {
      const i64 expect = l.swizzle->apply(l.offset + evaluate(l.layout, i));
      EXPECT_EQ(evaluate(l, IntTuple(i)), expect) << i;
      EXPECT_EQ(o[i], expect) << i;
      mx = std::max(mx, expect);
    }
    // composed.hpp (as of 36a7d3a): cosize is CuTe's cosize(ComposedLayout) = cosize of the inner layout,
    // not one past the largest swizzled offset (which is mx + 1 and may be larger).
    EXPECT_EQ(cosize(l), cosize(l.layout));
    EXPECT_GE(mx + 1, 1);
  }
}

TEST(Composed, PlainLayoutIsUnchanged) {
  const AnyLayout l = parse_layout("(4,2):(2,1)");
  EXPECT_FALSE(l.is_swizzled());
  EXPECT_EQ(offsets(l), offsets(l.layout));
  EXPECT_EQ(cosize(l), 8);
}

TEST(Composed, CoordinateEvaluation) {
  const AnyLayout l = parse_any_layout("Sw<3,3,3> o 0 o (8,64):(64,1)");
  // (1,8): inner 64+8 = 72 = 0b1001000 -> bits 6..8 = 1 xor into bits 3..5: 72 ^ 8 = 64.
  EXPECT_EQ(evaluate(l, IntTuple::tuple({1, 8})), 64);
  // index 9 -> (1,1): 65 -> 65 ^ 8 = 73.
  EXPECT_EQ(evaluate(l, IntTuple(9)), 73);
}

// facts: K_SW128 for 16-bit types: Sw<3,4,3> on bytes == Sw<3,3,3> on elements (byte = 2*element).
TEST(Composed, ByteAndElementFormsAgree) {
  const Swizzle bytes{3, 4, 3}, elems{3, 3, 3};
  for (std::int64_t e = 0; e < (1 << 14); ++e) ASSERT_EQ(bytes(2 * e), 2 * elems(e)) << e;
  const AnyLayout el = parse_any_layout("Sw<3,3,3> o 0 o (8,64):(64,1)");
  const AnyLayout by = parse_any_layout("Sw<3,4,3> o 0 o (8,64):(128,2)");
  for (i64 i = 0; i < 512; ++i) EXPECT_EQ(evaluate(by, IntTuple(i)), 2 * evaluate(el, IntTuple(i))) << i;
}

TEST(Composed, WithInnerKeepsSwizzleAndOffset) {
  const AnyLayout l = parse_any_layout("Sw<3,4,3> o 16 o (8,64):(64,1)");
  const AnyLayout m = l.with_inner(parse_layout("4:1"));
  EXPECT_EQ(*m.swizzle, (Swizzle{3, 4, 3}));
  EXPECT_EQ(m.offset, 16);
  EXPECT_EQ(m.layout, parse_layout("4:1"));
}

}  // namespace
}  // namespace layoutproof
