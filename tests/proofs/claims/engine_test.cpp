// tests/proofs/claims/engine_test.cpp: the engines' one answer, Outcome<W> (proofs/claims/engine.hpp):
// the header's example, and the exhaustive engine's holds and violated outcomes for a layout claim.
#include <gtest/gtest.h>

#include "model/layout/notation.hpp"
#include "proofs/claims/engine.hpp"

namespace layoutproof::proofs {
namespace {

TEST(EngineOutcome, TheHeadersExampleIsAViolationWithItsWitness) {
  const Outcome<Violation> o = check_exhaustive(Subject{parse_any_layout("(2,2):(1,1)"), false}, parse_claim("injective"));
  ASSERT_EQ(o.kind, OutcomeKind::violated) << o.text;
  EXPECT_EQ(o.witness.kind, Violation::Kind::collision);
  EXPECT_EQ(o.witness.a, 1);
  EXPECT_EQ(o.witness.b, 2);
  EXPECT_EQ(o.text, "");
  EXPECT_EQ(o.method, "exhaustive check of 4 indices");
  EXPECT_TRUE(o.queries.empty());
}

TEST(EngineOutcome, HoldsSaysWhatWasProved) {
  const Outcome<Violation> o = check_exhaustive(Subject{parse_any_layout("(2,2):(1,2)"), false}, parse_claim("injective"));
  ASSERT_EQ(o.kind, OutcomeKind::holds);
  EXPECT_FALSE(o.text.empty());
  EXPECT_EQ(o.method, "exhaustive check of 4 indices");
}

}  // namespace
}  // namespace layoutproof::proofs
