// Property finding (ProofEngines.AgreeOnSwizzledLayouts, seed 3823697703428498468, shrunk): Z3 gave
// UNKNOWN "smt tactic failed to show goal to be sat/unsat (incomplete quantifiers)" on
// surjective:1007 of Sw<1,2,3> o ((8,4,16,1,8)):((1,8,32,512,512)) while the exhaustive engine
// PROVED it. Sound, but the engines disagreed and the property failed for that seed.
// Fixed: quantified queries run on Z3's solver for the BV logic (proofs/smt/session.cpp), which
// decides these pure bit-vector formulas.
#include <gtest/gtest.h>

#include "model/layout/notation.hpp"
#include "proofs/claims/prove.hpp"

namespace layoutproof::proofs {
namespace {

TEST(Regression, Z3QuantifiedSurjectiveOnSwizzledLayout_seed3823697703428498468) {
  const Subject s{parse_any_layout("Sw<1,2,3> o ((8,4,16,1,8)):((1,8,32,512,512))"), false};
  const Claim c = parse_claim("surjective:1007");
  ProveOptions z;
  z.engine = EngineChoice::z3;
  // The regression is about the answer, not its speed: a loaded 2-core CI machine once took past the
  // default 8 s on this quantified query (UNKNOWN, timeout), so it gets a minute.
  z.smt.timeout_ms = 60000;
  ProveOptions e;
  e.engine = EngineChoice::exhaustive;
  const Verdict vz = prove(s, c, z), ve = prove(s, c, e);
  EXPECT_TRUE(ve.is_proved()) << ve.detail;
  EXPECT_EQ(vz.kind, ve.kind) << vz.method << ": " << vz.detail;
}

}  // namespace
}  // namespace layoutproof::proofs
