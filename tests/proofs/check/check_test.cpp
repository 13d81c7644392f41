// tests/proofs/check/check_test.cpp: the check and its result (proofs/check/check.hpp). A check's
// claim is parsed once, when it is made, into the form its subject's decider takes; its kind comes
// from its subject; and each family's result carries its own evidence: a refuted bank claim its
// BankWitness, a refuted kernel-copy claim a TraceEvidence holding the trace it indexes, a
// scheduler's measured balance a BalanceMeasure.
#include <gtest/gtest.h>

#include <memory>

#include "model/layout/notation.hpp"
#include "model/trace/access.hpp"
#include "proofs/check/run_check.hpp"

namespace layoutproof::proofs {
namespace {

AnyLayout layout(const char* text) { return parse_any_layout(text); }

TEST(Check, MakeCheckParsesTheClaimOnceIntoItsSubjectsForm) {
  const Check l = make_check("t", layout("(8,32):(32,1)"), "bijective", std::nullopt);
  EXPECT_EQ(l.kind(), CheckKind::layout);
  ASSERT_NE(std::get_if<Claim>(&l.claim.form), nullptr);
  EXPECT_EQ(std::get<Claim>(l.claim.form).kind, Claim::Kind::bijective);
  EXPECT_EQ(l.id(), "t: bijective");

  const Check t = make_check("t", layout("Sw<3,3,3> o 0 o (8,64):(64,1)"), "tma:Sw<3,4,3>,align=1024", std::nullopt, {}, 16);
  EXPECT_EQ(t.kind(), CheckKind::tma);
  ASSERT_NE(std::get_if<TmaClaim>(&t.claim.form), nullptr);
  EXPECT_EQ(std::get<TmaClaim>(t.claim.form).align, 1024);
  EXPECT_EQ(std::get<TmaSubject>(t.subject).element_bits, 16);

  const AnyLayout tile = layout("(32,32):(32,1)");
  const BankSubject access = make_bank_subject(make_access(tile, 4, 1, PatternKind::row_per_lane), SmemOp::ld);
  const Check b = make_check("sA", tile, "max-ways:2", access);
  EXPECT_EQ(b.kind(), CheckKind::bank);
  EXPECT_EQ(std::get<BankClaim>(b.claim.form).k, 2);
  EXPECT_EQ(access_text(b), "row-per-lane ld 4 B");
  EXPECT_EQ(b.id(), "sA: max-ways:2 [row-per-lane ld 4 B]");
  ASSERT_NE(layout_of(b), nullptr);
  EXPECT_EQ(to_string(*layout_of(b)), to_string(tile));

  EXPECT_THROW(make_check("t", tile, "conflict-free", std::nullopt), LayoutError);  // a bank claim needs an access
  EXPECT_THROW(make_check("t", tile, "bijectiv", std::nullopt), LayoutError);
}

TEST(Check, EachFamilysResultCarriesItsEvidence) {
  // Row per lane, 4-byte words, a 32-word row: every lane in bank 0, a 32-way conflict.
  const AnyLayout tile = layout("(32,32):(32,1)");
  const BankSubject access = make_bank_subject(make_access(tile, 4, 1, PatternKind::row_per_lane), SmemOp::ld);
  const CheckResult bank = run_check(make_check("sA", tile, "conflict-free", access), {}).front();
  ASSERT_TRUE(bank.verdict.is_refuted()) << bank.verdict.detail;
  ASSERT_NE(std::get_if<BankWitness>(&bank.evidence), nullptr);
  EXPECT_EQ(std::get<BankWitness>(bank.evidence).ways, 32);

  const CheckResult proved = run_check(make_check("t", layout("(8,32):(32,1)"), "bijective", std::nullopt), {}).front();
  EXPECT_TRUE(proved.verdict.is_proved());
  EXPECT_TRUE(std::holds_alternative<std::monostate>(proved.evidence));

  const CheckResult refuted = run_check(make_check("t", layout("(4,2):(1,1)"), "injective", std::nullopt), {}).front();
  ASSERT_TRUE(refuted.verdict.is_refuted());
  EXPECT_TRUE(std::holds_alternative<std::monostate>(refuted.evidence));  // a layout's witness is the verdict's own
  EXPECT_FALSE(refuted.verdict.witness.points.empty());
}

TEST(Check, AKernelCopysWitnessHoldsTheTraceItIndexes) {
  // One warp reading a column of a 32x32 float tile: 32 lanes in one bank.
  AddressTrace t;
  t.op = SmemOp::ld;
  t.width_bytes = 4;
  t.element_bytes = 4;
  t.threads = 32;
  t.provenance = "column read";
  TraceInstruction ins;
  ins.where = "warp 0, copy index (0)";
  for (int l = 0; l < kWarpLanes; ++l) ins.addr[static_cast<std::size_t>(l)] = 128 * l, ins.thread[static_cast<std::size_t>(l)] = l;
  t.instructions.push_back(ins);
  const auto trace = std::make_shared<const AddressTrace>(t);
  const Check c = make_kernel_check("sA s2r", trace, "conflict-free", "ld 4 B");
  EXPECT_EQ(c.kind(), CheckKind::kernel);
  const CheckResult r = run_check(c, {}).front();
  ASSERT_TRUE(r.verdict.is_refuted()) << r.verdict.detail;
  const auto* e = std::get_if<TraceEvidence>(&r.evidence);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->trace, trace);
  EXPECT_EQ(e->witness.ways, 32);
}

TEST(Check, AResultReadBackKeepsItsRecordedKind) {
  Check c;
  c.name = "gemm";
  c.subject = RecordedSubject{CheckKind::scheduler, std::nullopt, "sm90-persistent"};
  c.claim = {"balance", SchedulerClaim::balance};
  EXPECT_EQ(c.kind(), CheckKind::scheduler);
  EXPECT_TRUE(is_report(c));
  EXPECT_EQ(layout_of(c), nullptr);
  EXPECT_EQ(c.id(), "gemm: balance [sm90-persistent]");
  // Read back, it is not decided again.
  EXPECT_EQ(run_check(c, {}).front().verdict.kind, Verdict::Kind::error);
}

}  // namespace
}  // namespace layoutproof::proofs
