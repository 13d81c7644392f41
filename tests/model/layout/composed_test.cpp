// Tests for model/layout/composed.hpp: swizzled layouts Sw o OFFSET o L, c -> Sw(OFFSET + L(c)).
#include "model/layout/composed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "model/layout/flat_layout_host.hpp"
#include "model/layout/notation.hpp"

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

namespace layoutproof {
namespace {

// element_swizzle: the byte swizzle on N-bit elements as an element-level swizzle. Brute force:
// for every element e, the byte address byte_sw(e * N/8) is element_swizzle(e) * N/8 (N >= 8), or
// the element moves with its byte (N < 8).
TEST(Composed, ElementSwizzleMatchesByteSwizzleBruteForce) {
  for (int bits : {1, 2, 4, 8, 16, 32, 64, 128})
    for (int b = 0; b <= 3; ++b)
      for (int m = 0; m <= 5; ++m)
        for (int s : {b, b + 1, -b, -(b + 2)}) {
          if (std::abs(s) < b) continue;
          const Swizzle byte{b, m, s};
          Swizzle e;
          try {
            e = element_swizzle(byte, bits);
          } catch (const LayoutError&) {
            // Refused only when the swizzle moves bytes inside an element.
            EXPECT_TRUE(bits > 8 && b > 0 && (1 << m) < bits / 8) << b << "," << m << "," << s << " on " << bits;
            continue;
          }
          for (i64 el = 0; el < 4096; ++el) {
            if (bits >= 8) {
              const i64 k = bits / 8;
              ASSERT_EQ(byte.apply(el * k), e.apply(el) * k) << "bits " << bits << " e " << el;
            } else {
              const i64 per = 8 / bits;
              ASSERT_EQ(byte.apply(el / per) * per + el % per, e.apply(el)) << "bits " << bits << " e " << el;
            }
          }
        }
}

// The printed smem_ptr form is a swizzle on BYTE addresses: GMMA K_SW128 on half is Sw<3,3,3> on
// elements, never Sw<3,4,3> (which would refute a correct layout).
TEST(Composed, SmemPtrFormEvaluatesByteSwizzle) {
  const AnyLayout l = parse_any_layout("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
  ASSERT_TRUE(l.is_smem_ptr());
  EXPECT_EQ(l.smem_ptr_bits, 16);
  EXPECT_EQ(l.byte_swizzle, (Swizzle{3, 4, 3}));
  EXPECT_EQ(*l.swizzle, (Swizzle{3, 3, 3}));
  const AnyLayout element = parse_any_layout("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(offsets(l), offsets(element));
  const Swizzle byte{3, 4, 3};
  for (i64 e = 0; e < 512; ++e) EXPECT_EQ(evaluate(l, IntTuple(e)) * 2, byte.apply(evaluate(l.layout, e) * 2));
  EXPECT_EQ(to_cute_string(l), "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
  EXPECT_EQ(to_string(l), "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)");
  // A byte swizzle that moves bytes inside a 16-bit element has no element-level form.
  EXPECT_THROW(parse_any_layout("Sw<3,0,4> o smem_ptr[16b](unset) o _8:_1"), LayoutError);
  const AnyLayout printable = parse_any_layout("Sw<3,0,4> o smem_ptr[16b](unset) o _8:_1", Reading::automatic, true);
  EXPECT_FALSE(printable.evaluable);
  EXPECT_EQ(to_cute_string(printable), "Sw<3,0,4> o smem_ptr[16b](unset) o _8:_1");
  EXPECT_THROW(offsets(printable), LayoutError);
  EXPECT_THROW(to_flat(printable), LayoutError);
}

}  // namespace
}  // namespace layoutproof
