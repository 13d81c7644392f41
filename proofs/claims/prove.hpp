#pragma once
// prove(): routes a claim to an engine, replays every violation through model/ and returns the
// Verdict. The only entry point the CLI, tests and benchmarks need.
#include "proofs/claims/engine.hpp"
#include "proofs/claims/verdict.hpp"

namespace layoutproof::proofs {

enum class EngineChoice { z3, exhaustive, automatic };

struct ProveOptions {
  EngineChoice engine = EngineChoice::automatic;
  SmtOptions smt;
  i64 auto_exhaustive_limit = i64{1} << 14;  // auto: enumerate domains up to this many indices
  bool largest_v = true;                     // contiguous: also report the largest V
};

// Decides one claim. Never throws for a well-formed claim: engine errors become ERROR, a
// violation that does not replay on model/ becomes ERROR "encoding mismatch".
Verdict prove(const Subject& s, const Claim& c, const ProveOptions& o);

// Replays a raw violation on model/: REFUTED with the witness when it reproduces, else ERROR.
Verdict replay(const Subject& s, const Claim& c, const Violation& v, const std::string& method);

// The theorem "every Swizzle<B,M,S> with |S| >= B is a bijection on 32-bit offsets", proved once
// with B, M, S symbolic (proofs/smt/z3_engine.cpp).
Verdict prove_swizzle_family_bijective(const SmtOptions& o);

}  // namespace layoutproof::proofs
