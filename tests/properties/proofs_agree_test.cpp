// Property (conventions.md #6: every encoding has an exhaustive twin): the Z3 engine and its exhaustive twin agree on every
// claim for generated small layouts: same verdict kind, neither UNKNOWN nor ERROR, and the same
// minimal witness (indices and offsets) when refuted. Built only when proofs/ is (needs Z3).
#include <gtest/gtest.h>

#include "proofs/claims/prove.hpp"
#include "properties/check.hpp"
#include "properties/generators.hpp"

namespace layoutproof {
namespace {

using proofs::Claim;
using proofs::EngineChoice;
using proofs::ProveOptions;
using proofs::Subject;
using proofs::Verdict;

ProveOptions engine(EngineChoice e) {
  ProveOptions o;
  o.engine = e;
  o.largest_v = false;
  return o;
}

// The claims of proofs/claims/claim.hpp instantiated for the subject (operands drawn from the same space).
rc::Gen<std::string> claim_text(const AnyLayout& l) {
  const i64 n = size(l.layout);
  return rc::gen::oneOf(
      rc::gen::just<std::string>("injective"), rc::gen::just<std::string>("bijective"),
      rc::gen::just<std::string>("swizzle-permutes"),
      rc::gen::map(rc::gen::inRange<i64>(1, n + 3), [](i64 k) { return "surjective:" + std::to_string(k); }),
      rc::gen::map(rc::gen::element<i64>(1, 2, 4, 8), [](i64 v) { return "contiguous:" + std::to_string(v); }),
      rc::gen::map(gen::layouts(gen::compact | gen::permuted | gen::broadcast, 3, 64),
                   [](const Layout& o) { return "equivalent:" + to_string(o); }),
      rc::gen::map(gen::layouts(gen::compact | gen::permuted, 3, 64),
                   [](const Layout& o) { return "inverse:" + to_string(o); }));
}

void check_agreement(const AnyLayout& l) {
  const std::string text = *claim_text(l).as("claim");
  Claim c;
  try {
    c = proofs::parse_claim(text);
  } catch (const LayoutError&) {
    RC_DISCARD("claim not applicable");
  }
  const Subject s{l, false};
  const Verdict z = proofs::prove(s, c, engine(EngineChoice::z3));
  const Verdict e = proofs::prove(s, c, engine(EngineChoice::exhaustive));
  RC_LOG() << "z3: " << to_string(z.kind) << " " << z.detail << "\nexhaustive: " << to_string(e.kind) << " "
           << e.detail << "\n";
  RC_TAG(to_string(e.kind));
  RC_ASSERT(z.kind == e.kind);
  RC_ASSERT(z.kind == Verdict::Kind::proved || z.kind == Verdict::Kind::refuted);
  if (z.is_refuted()) {
    RC_ASSERT(z.witness.points.size() == e.witness.points.size());
    for (std::size_t i = 0; i < z.witness.points.size(); ++i) {
      RC_ASSERT(z.witness.points[i].index == e.witness.points[i].index);
      RC_ASSERT(z.witness.points[i].offset == e.witness.points[i].offset);
    }
  }
}

LP_PROP(ProofEngines, AgreeOnPlainLayouts, 600, ()) {
  check_agreement(AnyLayout(*gen::layouts(gen::all_kinds, 4, 256).as("L")));
}

LP_PROP(ProofEngines, AgreeOnSwizzledLayouts, 400, ()) {
  const AnyLayout l = *gen::swizzled().as("L");
  RC_PRE(size(l.layout) <= 4096);
  check_agreement(l);
}

}  // namespace
}  // namespace layoutproof
