// model/layout/flat_layout.hpp: the device-evaluable flattening is the same function as the model.
#include "model/layout/flat_layout.hpp"

#include <gtest/gtest.h>

#include "model/layout/flat_layout_host.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {
namespace {

TEST(FlatLayout, EvaluatesLikeTheModelOnEveryIndexAndBeyond) {
  for (const char* text : {"(4,(2,2)):(2,(1,8))", "((2,3),4):((1,2),6)", "8:4", "(4):(1)", "(3,(1,5)):(0,(7,3))",
                           "Sw<3,3,3> o 0 o (8,64):(64,1)", "Sw<2,2,-3> o 5 o (16,(2,4)):(1,(64,16))"}) {
    const AnyLayout l = parse_any_layout(text);
    const FlatLayout f = to_flat(l);
    EXPECT_EQ(f.size(), size(l.layout)) << text;
    for (i64 i = 0; i < 2 * size(l.layout); ++i)  // past size: the last mode is unbounded in both
      ASSERT_EQ(f(i), evaluate(l, IntTuple(i))) << text << " at " << i;
  }
}

TEST(FlatLayout, RefusesTooManyModes) {
  std::vector<IntTuple> s(FlatLayout::kMaxModes + 1, IntTuple(2)), d(FlatLayout::kMaxModes + 1, IntTuple(1));
  EXPECT_THROW(to_flat(AnyLayout(Layout(IntTuple::tuple(s), IntTuple::tuple(d)))), LayoutError);
}

}  // namespace
}  // namespace layoutproof
