// Findings of the libFuzzer targets (fuzz/, docs/fuzzing.md), one test each; the inputs are also in
// fuzz/corpus/<target>/finding-* so that every fuzz run replays them.
#include <gtest/gtest.h>

#include "model/source/cpp_source.hpp"
#include "model/layout/layout.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {
namespace {

// fuzz_algebra_query (device run of 2026-11-23, inputs finding-d8e8f3d4a223 ...): `idx2crd 5 (4,0) (1,4)`,
// `idx2crd 21 (0,4)`, `idx2crd 2 (_0,3)` divided by the zero shape (UBSan: division by zero, SIGFPE
// in the CLI). A zero shape is refused.
TEST(FuzzFindings, Idx2crdRefusesZeroShapes) {
  EXPECT_THROW(idx2crd(IntTuple(5), parse_int_tuple("(4,0)"), parse_int_tuple("(1,4)")), LayoutError);
  EXPECT_THROW(idx2crd(IntTuple(21), parse_int_tuple("(0,4)")), LayoutError);
  EXPECT_THROW(idx2crd(IntTuple(2), parse_int_tuple("(_0,3)")), LayoutError);
  EXPECT_EQ(to_string(idx2crd(IntTuple(5), parse_int_tuple("(4,2)"))), "(1,1)");  // still answers
  EXPECT_THROW(idx2crd(IntTuple(INT64_MIN), IntTuple(2), IntTuple(-1)), OverflowError);
}

// fuzz_cpp_source (same run, finding-empty-shape): make_layout(make_shape()) is the empty layout,
// printed ():() as CuTe does, which the notation refused: what the tool prints, it reads back.
TEST(FuzzFindings, EmptyLayoutRoundTrips) {
  const AnyLayout l = parse_layout_any_syntax("make_layout(make_shape())");
  EXPECT_EQ(to_cute_string(l), "():()");
  EXPECT_EQ(to_cute_string(parse_any_layout("():()", Reading::exact)), "():()");
  EXPECT_EQ(to_string(parse_int_tuple("()")), "()");
  EXPECT_THROW(parse_int_tuple("(,)"), ParseError);
}

}  // namespace
}  // namespace layoutproof
