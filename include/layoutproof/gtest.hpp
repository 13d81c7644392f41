#pragma once
// GoogleTest assertions over layout claims, for a kernel project's own unit tests. Header-only:
// include it after <gtest/gtest.h> is reachable and link GTest::gtest (or gtest_main) next to
// layoutproof::layoutproof.
//
//   #include <layoutproof/gtest.hpp>
//   TEST(SmemLayouts, SwizzledAtom) {
//     EXPECT_PROVED("Sw<3,3,3> o (8,64):(64,1)", "bijective");
//     EXPECT_PROVED("composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})", "contiguous:8");
//     EXPECT_REFUTED("Sw<3,3,3> o (8,64):(64,1)", "contiguous:16");  // 16-element groups are swizzled apart
//   }
//
// A failure prints the layout and claim as written and the verdict: its method, detail and the
// replayed witness, e.g.
//   layoutproof: "Sw<3,3,3> o (8,64):(64,1)" claim "contiguous:16" is not PROVED:
//   REFUTED  contiguous:16  [exhaustive check of 512 indices, 0.0 ms]  witness: x: index 1 (1,0) -> 72 (...)
// UNKNOWN and ERROR fail both EXPECT_PROVED and EXPECT_REFUTED: neither is evidence either way.
// The _WITH forms take layoutproof::api::Options (engine, timeout, constants for C++ layouts).
#include <gtest/gtest.h>

#include <string>

#include "layoutproof/layoutproof.hpp"

namespace layoutproof::api::testing {

// A gtest predicate-formatter (EXPECT_PRED_FORMAT3): success iff the verdict is `want`.
inline ::testing::AssertionResult verdict_is(Outcome want, const char* layout_expr, const char* claim_expr,
                                             const char* /*options_expr*/, const std::string& layout,
                                             const std::string& claim, const Options& options) {
  const Verdict v = prove(std::string_view(layout), std::string_view(claim), options);
  if (v.outcome == want) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "layoutproof: " << layout_expr << " claim " << claim_expr << " is not "
                                       << to_string(want) << ":\n  layout: " << v.subject << "\n  " << v;
}

inline ::testing::AssertionResult is_proved(const char* l, const char* c, const char* o, const std::string& layout,
                                            const std::string& claim, const Options& options) {
  return verdict_is(Outcome::proved, l, c, o, layout, claim, options);
}
inline ::testing::AssertionResult is_refuted(const char* l, const char* c, const char* o, const std::string& layout,
                                             const std::string& claim, const Options& options) {
  return verdict_is(Outcome::refuted, l, c, o, layout, claim, options);
}

}  // namespace layoutproof::api::testing

#define EXPECT_PROVED_WITH(layout, claim, options) \
  EXPECT_PRED_FORMAT3(::layoutproof::api::testing::is_proved, layout, claim, options)
#define ASSERT_PROVED_WITH(layout, claim, options) \
  ASSERT_PRED_FORMAT3(::layoutproof::api::testing::is_proved, layout, claim, options)
#define EXPECT_REFUTED_WITH(layout, claim, options) \
  EXPECT_PRED_FORMAT3(::layoutproof::api::testing::is_refuted, layout, claim, options)
#define ASSERT_REFUTED_WITH(layout, claim, options) \
  ASSERT_PRED_FORMAT3(::layoutproof::api::testing::is_refuted, layout, claim, options)

#define EXPECT_PROVED(layout, claim) EXPECT_PROVED_WITH(layout, claim, ::layoutproof::api::Options{})
#define ASSERT_PROVED(layout, claim) ASSERT_PROVED_WITH(layout, claim, ::layoutproof::api::Options{})
#define EXPECT_REFUTED(layout, claim) EXPECT_REFUTED_WITH(layout, claim, ::layoutproof::api::Options{})
#define ASSERT_REFUTED(layout, claim) ASSERT_REFUTED_WITH(layout, claim, ::layoutproof::api::Options{})
