// tests/proofs/check/run_check_test.cpp: run_check (proofs/check/run_check.hpp) decides a check of
// any kind: one result for a layout claim (the header's example), UNKNOWN without starting when the
// run's deadline has passed, and a compiled entry's one result per instruction and claim, which its
// kernels still give past the deadline.
#include <gtest/gtest.h>

#include <memory>

#include "model/compiled/ptx_parse.hpp"
#include "model/layout/notation.hpp"
#include "proofs/check/run_check.hpp"
#include "proofs/claims/ptx_claims.hpp"

namespace layoutproof::proofs {
namespace {

ProveOptions past_deadline() {
  ProveOptions o;
  o.smt.deadline.seconds = 1;
  o.smt.deadline.at = Deadline::Clock::now() - std::chrono::seconds(1);
  return o;
}

// A kernel k of 32 threads with two shared-memory stores (one word per lane, then one byte per
// lane) and the claims [conflict-free, aligned], as a spec's compiled: entry.
Check compiled_entry() {
  const std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                          ".reg .b32 %r<8>;\n.shared .align 16 .b8 s[4096];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, s;\n"
                          "shl.b32 %r3, %r1, 2;\nadd.u32 %r4, %r2, %r3;\nst.shared.u32 [%r4], %r1;\n"
                          "add.u32 %r5, %r2, %r1;\nst.shared.u8 [%r5+1024], %r1;\nret;\n}\n";
  auto program = std::make_shared<compiled::Program>(compiled::parse_ptx(ptx, "k.ptx"));
  auto e = std::make_shared<CompiledEntry>();
  e->file = "k.ptx";
  PtxLaunchRequest request;
  request.block = std::array<i64, 3>{32, 1, 1};
  e->launches = plan_ptx_launches(*program, "k", request, "kernel");
  decode_ptx_launches(*program, e->launches);
  e->program = program;
  for (const char* claim : {"conflict-free", "aligned"}) {
    e->claims.push_back(*parse_ptx_claim(claim));
    e->claim_where.push_back({});
  }
  Check c;
  c.name = "k";
  c.claim.text = "conflict-free, aligned";
  c.subject = CompiledSubject{std::move(e), "kernel k of k.ptx"};
  return c;
}

TEST(RunCheck, ALayoutClaimGivesOneResult) {
  const std::vector<CheckResult> r = run_check(make_check("t", parse_any_layout("(8,32):(32,1)"), "bijective", std::nullopt), {});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].verdict.is_proved()) << r[0].verdict.detail;
  EXPECT_EQ(r[0].check.id(), "t: bijective");
}

TEST(RunCheck, ACheckNotStartedByTheDeadlineIsUnknown) {
  const ProveOptions o = past_deadline();
  for (const char* claim : {"bijective", "tma:Sw<3,4,3>"}) {
    const Check c = make_check("t", parse_any_layout("Sw<3,3,3> o 0 o (8,64):(64,1)"), claim, std::nullopt, {}, 16);
    const std::vector<CheckResult> r = run_check(c, o);
    ASSERT_EQ(r.size(), 1u) << claim;
    EXPECT_EQ(r[0].verdict.kind, Verdict::Kind::unknown) << claim;
    EXPECT_EQ(r[0].verdict.method, "deadline") << claim;
    EXPECT_EQ(r[0].verdict.detail, o.smt.deadline.reason()) << claim;
    // The same check in time is decided.
    EXPECT_TRUE(run_check(c, {}).at(0).verdict.is_proved()) << claim;
  }
}

TEST(RunCheck, ACompiledEntryGivesOneResultPerInstructionAndClaim) {
  const Check c = compiled_entry();
  const std::vector<CheckResult> r = run_check(c, {});
  ASSERT_EQ(r.size(), 4u);  // 2 instructions x 2 claims, in PTX order
  for (const CheckResult& x : r) {
    const auto* at = std::get_if<InstructionSubject>(&x.check.subject);  // a result names its instruction, not the entry
    ASSERT_NE(at, nullptr);
    EXPECT_EQ(at->site.kernel, "k");
    EXPECT_EQ(x.check.kind(), CheckKind::compiled);
    EXPECT_NE(std::get_if<PtxClaim>(&x.check.claim.form), nullptr);
    EXPECT_TRUE(x.verdict.is_proved()) << x.check.id() << ": " << x.verdict.detail;
  }
  EXPECT_EQ(r[0].check.claim.text, "conflict-free");
  EXPECT_EQ(r[1].check.claim.text, "aligned");
  EXPECT_LT(site_of(r[0].check)->ptx.line, site_of(r[2].check)->ptx.line);
  // Past the deadline its kernels still run: each claim at each instruction says UNKNOWN.
  const std::vector<CheckResult> late = run_check(c, past_deadline());
  ASSERT_EQ(late.size(), 4u);
  for (const CheckResult& x : late) EXPECT_EQ(x.verdict.kind, Verdict::Kind::unknown) << x.check.id();
}

}  // namespace
}  // namespace layoutproof::proofs
