// model/recast.hpp: upcast as CuTe's, checked against the definition: the upcast layout maps the
// coarse element containing fine element x to L(x) / N.
#include "model/recast.hpp"

#include <gtest/gtest.h>

#include "model/notation.hpp"

namespace layoutproof {
namespace {

TEST(Upcast, FourBitAtomBecomesTheByteAtom) {
  // GMMA K SW128 atom for 4-bit elements (shared/facts/cutlass_atoms.tsv) -> its byte form.
  const AnyLayout a = parse_any_layout("Sw<3,5,3> o 0 o (8,256):(256,1)");
  EXPECT_EQ(to_string(upcast(a, 2)), "Sw<3,4,3> o 0 o (8,128):(128,1)");
}

TEST(Upcast, MatchesTheDefinitionOnAlignedPairs) {
  for (const char* text : {"Sw<3,5,3> o 0 o (8,256):(256,1)", "Sw<2,5,3> o 0 o (128,8):(1,128)", "(8,32):(32,1)",
                           "(4,(2,8)):(16,(64,1))"}) {
    const AnyLayout fine = parse_any_layout(text);
    const AnyLayout coarse = upcast(fine, 2);
    // Each coarse element c holds fine elements 2c' and 2c'+1 along the stride-1 mode.
    const std::vector<i64> f = offsets(fine), c = offsets(coarse);
    EXPECT_EQ(static_cast<i64>(c.size()) * 2, static_cast<i64>(f.size())) << text;
    std::vector<i64> fine_pairs;
    for (i64 o : f)
      if (o % 2 == 0) fine_pairs.push_back(o / 2);
    std::sort(fine_pairs.begin(), fine_pairs.end());
    std::vector<i64> coarse_sorted = c;
    std::sort(coarse_sorted.begin(), coarse_sorted.end());
    EXPECT_EQ(coarse_sorted, fine_pairs) << text;
  }
}

TEST(Upcast, RefusesWhatCuteRefuses) {
  EXPECT_THROW(upcast(parse_layout("(8,8):(3,24)"), 2), LayoutError);
  EXPECT_THROW(upcast(parse_any_layout("Sw<3,0,3> o (8,8):(8,1)"), 2), LayoutError);
}

}  // namespace
}  // namespace layoutproof

namespace layoutproof {
namespace {

// upcast keeps CuTe's smem_ptr form (pointer_flagged.hpp): the byte swizzle stays, the element grows.
TEST(Recast, UpcastKeepsSmemPtrForm) {
  const AnyLayout bytes = parse_any_layout("Sw<3,4,3> o smem_ptr[8b](unset) o (_8,_128):(_128,_1)");
  const AnyLayout halves = upcast(bytes, 2);
  EXPECT_EQ(to_cute_string(halves), "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
  EXPECT_EQ(*halves.swizzle, (Swizzle{3, 3, 3}));
  // Half (i,j) is bytes (i,2j) and (i,2j+1): byte address 2 * halves(i,j).
  for (i64 i = 0; i < 8; ++i)
    for (i64 j = 0; j < 64; ++j)
      EXPECT_EQ(evaluate(halves, IntTuple::tuple({i, j})) * 2, evaluate(bytes, IntTuple::tuple({i, 2 * j}))) << i << "," << j;
}

}  // namespace
}  // namespace layoutproof
