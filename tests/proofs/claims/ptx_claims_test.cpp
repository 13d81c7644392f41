// proofs/claims/ptx_claims.hpp on small hand-written kernels: no-overlap excuses lanes that write
// the same bytes with equal data (the stored values compared where they are known), is UNKNOWN
// where a value is not known, and REFUTED (lanes, address, both values) where known values differ;
// and, after a divergent if/else, the claims that depend on grouping decide again.
#include "proofs/claims/ptx_claims.hpp"

#include <gtest/gtest.h>

#include "model/compiled/ptx_parse.hpp"

namespace layoutproof::proofs {
namespace {

struct Ran {
  compiled::Program program;
  compiled::Launch launch;
  compiled::KernelRun run;
};

// A kernel `k(u64 param0)` with 4 KiB of shared memory `s` around `body` (%r1 = %tid.x, %r2 = s).
Ran run_body(const std::string& body, i64 threads = 32) {
  const std::string text = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 k_param_0)\n{\n"
                           ".reg .b32 %r<32>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n.reg .f32 %f<4>;\n"
                           ".shared .align 16 .b8 s[4096];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, s;\n" +
                           body + "\nret;\n}\n";
  Ran r{compiled::parse_ptx(text, "t.ptx"), {}, {}};
  compiled::decode_with_callees(r.program, 0);
  r.launch.block = {threads, 1, 1};
  r.launch.params.assign(1, std::nullopt);
  r.run = compiled::run_kernel(r.program, 0, r.launch);
  return r;
}

// The verdict of `claim` on the site at PTX line order `index`.
PtxClaimResult decide(const Ran& r, std::size_t index, const std::string& claim) {
  const auto c = parse_ptx_claim(claim);
  EXPECT_TRUE(c.has_value());
  return prove_ptx_site(r.program, r.launch, r.run, r.run.sites.at(index), *c, ProveOptions{});
}

TEST(PtxClaims, NoOverlapExcusesEqualKnownData) {
  // Every lane stores the same register holding 7 at byte 0: equal data, no overlap to report.
  const Ran same = run_body("mov.u32 %r3, 7;\nst.shared.u32 [%r2], %r3;");
  EXPECT_TRUE(decide(same, 0, "no-overlap").verdict.is_proved()) << decide(same, 0, "no-overlap").verdict.detail;
  // An immediate, a 2-element vector: lanes 2i and 2i+1 write bytes 8i..8i+7 with {i, 5}.
  const Ran pairs = run_body("shr.u32 %r3, %r1, 1;\nshl.b32 %r4, %r3, 3;\nadd.u32 %r5, %r2, %r4;\nmov.u32 %r6, 5;\n"
                             "st.shared.v2.u32 [%r5], {%r3, %r6};\nst.shared.u32 [%r2+256], 9;");
  EXPECT_TRUE(decide(pairs, 0, "no-overlap").verdict.is_proved()) << decide(pairs, 0, "no-overlap").verdict.detail;
  EXPECT_TRUE(decide(pairs, 1, "no-overlap").verdict.is_proved()) << decide(pairs, 1, "no-overlap").verdict.detail;
}

TEST(PtxClaims, IssuesWithEqualAddressesAndDifferentDataAreDistinct) {
  // Two iterations: every lane stores the iteration's number at byte 0, then lanes 0-1 store their
  // %tid.x at byte 4 (the second issue with the same addresses but its own data must be kept).
  const Ran r = run_body("mov.u32 %r10, 0;\n$L:\nst.shared.u32 [%r2], %r10;\nsetp.lt.u32 %p1, %r1, 2;\n"
                         "add.u32 %r11, %r1, %r10;\nand.b32 %r12, %r11, 1;\n@%p1 st.shared.u32 [%r2+4], %r12;\n"
                         "add.u32 %r10, %r10, 1;\nsetp.lt.u32 %p2, %r10, 2;\n@%p2 bra $L;");
  ASSERT_EQ(r.run.sites.at(0).patterns.size(), 2u);
  ASSERT_TRUE(r.run.sites.at(0).patterns[0].written);
  EXPECT_EQ(r.run.sites.at(0).patterns[1].written->bytes[5][0], 1);
  EXPECT_TRUE(decide(r, 0, "no-overlap").verdict.is_proved());
  // Iteration 0: lanes 0, 1 write 0 and 1; iteration 1: 1 and 0. Both differ: the first refutes.
  ASSERT_EQ(r.run.sites.at(1).patterns.size(), 2u);
  const PtxClaimResult v = decide(r, 1, "no-overlap");
  ASSERT_TRUE(v.verdict.is_refuted());
  EXPECT_NE(v.verdict.witness.why.find("execution 0"), std::string::npos) << v.verdict.witness.why;
}

TEST(PtxClaims, NoOverlapRefutesDifferentKnownData) {
  // Lanes 2i and 2i+1 write word i with their own %tid.x: lanes 0 and 1 write 0 and 1 at byte 0.
  const Ran r = run_body("shr.u32 %r3, %r1, 1;\nshl.b32 %r4, %r3, 2;\nadd.u32 %r5, %r2, %r4;\nst.shared.u32 [%r5], %r1;");
  const PtxClaimResult v = decide(r, 0, "no-overlap");
  ASSERT_TRUE(v.verdict.is_refuted()) << v.verdict.detail;
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->lanes, (std::vector<int>{0, 1}));
  const std::string why = v.verdict.witness.why;
  EXPECT_NE(why.find("lane 0 (thread 0) at byte 0"), std::string::npos) << why;
  EXPECT_NE(why.find("lane 1 (thread 1) at byte 0"), std::string::npos) << why;
  EXPECT_NE(why.find("0x00000000"), std::string::npos) << why;  // both values, as written
  EXPECT_NE(why.find("0x00000001"), std::string::npos) << why;
  // %r7 = (tid << 16) | tid / 2: its low 16 bits are equal in lanes 2i and 2i+1 (a 2-byte store of
  // it: PROVED), its 32 bits differ (a 4-byte store: REFUTED).
  const Ran h = run_body("shr.u32 %r3, %r1, 1;\nshl.b32 %r4, %r3, 2;\nadd.u32 %r5, %r2, %r4;\nshl.b32 %r6, %r1, 16;\n"
                         "or.b32 %r7, %r6, %r3;\nst.shared.u16 [%r5], %r7;\nst.shared.u32 [%r5], %r7;");
  EXPECT_TRUE(decide(h, 0, "no-overlap").verdict.is_proved()) << decide(h, 0, "no-overlap").verdict.detail;
  EXPECT_TRUE(decide(h, 1, "no-overlap").verdict.is_refuted());
}

TEST(PtxClaims, NoOverlapIsUnknownWhereTheDataIsNotKnown) {
  // Every lane stores a value it loaded from global memory at byte 0: equal or not is not known.
  const Ran r = run_body("ld.param.u64 %rd1, [k_param_0];\nld.global.f32 %f1, [%rd1];\nst.shared.f32 [%r2], %f1;");
  const PtxClaimResult v = decide(r, 0, "no-overlap");
  EXPECT_EQ(v.verdict.kind, Verdict::Kind::unknown) << v.verdict.detail;
  EXPECT_NE(v.verdict.detail.find("lanes 0 and 1 write byte 0"), std::string::npos) << v.verdict.detail;
  EXPECT_NE(v.verdict.detail.find("loaded from global memory"), std::string::npos) << v.verdict.detail;
  // A known difference elsewhere still refutes: lanes write %tid.x at word tid / 2 after that.
  const Ran both = run_body("ld.param.u64 %rd1, [k_param_0];\nld.global.u32 %r9, [%rd1];\nshr.u32 %r3, %r1, 1;\n"
                            "shl.b32 %r4, %r3, 2;\nadd.u32 %r5, %r2, %r4;\nsetp.lt.u32 %p1, %r1, 2;\nselp.b32 %r6, %r9, %r1, %p1;\n"
                            "st.shared.u32 [%r5], %r6;");
  EXPECT_TRUE(decide(both, 0, "no-overlap").verdict.is_refuted()) << decide(both, 0, "no-overlap").verdict.detail;
  // Distinct bytes need no data: PROVED whatever the lanes store.
  const Ran apart = run_body("ld.param.u64 %rd1, [k_param_0];\nld.global.f32 %f1, [%rd1];\nshl.b32 %r4, %r1, 2;\n"
                             "add.u32 %r5, %r2, %r4;\nst.shared.f32 [%r5], %f1;");
  EXPECT_TRUE(decide(apart, 0, "no-overlap").verdict.is_proved());
}

TEST(PtxClaims, GroupingClaimsDecideOnEachPathOfAReconvergingBranch) {
  // if (lane < 16) s[t] = t; else s[3t] = t; then every lane loads s[4t] (after the join).
  const Ran r = run_body("and.b32 %r3, %r1, 31;\nsetp.lt.u32 %p1, %r3, 16;\n@!%p1 bra $L_else;\nshl.b32 %r4, %r1, 2;\n"
                         "add.u32 %r5, %r2, %r4;\nst.shared.u32 [%r5], %r1;\nbra.uni $L_join;\n$L_else:\nmul.lo.s32 %r4, %r1, 12;\n"
                         "add.u32 %r5, %r2, %r4;\nst.shared.u32 [%r5], %r1;\n$L_join:\nshl.b32 %r6, %r1, 4;\nadd.u32 %r7, %r2, %r6;\n"
                         "ld.shared.u32 %r8, [%r7];");
  ASSERT_EQ(r.run.sites.size(), 3u);
  for (std::size_t k = 0; k < 2; ++k) {  // each path's 16 lanes: distinct banks
    EXPECT_TRUE(decide(r, k, "conflict-free").verdict.is_proved()) << k << ": " << decide(r, k, "conflict-free").verdict.detail;
    EXPECT_TRUE(decide(r, k, "no-overlap").verdict.is_proved()) << k;
  }
  // The load: word 4t, bank 4t % 32: lanes t, t + 8, t + 16, t + 24 on one bank, 4 words: 4-way.
  const PtxClaimResult v = decide(r, 2, "max-ways:3");
  ASSERT_TRUE(v.verdict.is_refuted()) << v.verdict.detail;
  EXPECT_EQ(r.run.sites[2].wavefronts, 4);
  EXPECT_TRUE(decide(r, 2, "max-ways:4").verdict.is_proved());
}

TEST(PtxClaims, GroupingClaimsAreUnknownWherePathsMeetBeforeTheirJoin) {
  const Ran r = run_body("and.b32 %r3, %r1, 31;\nsetp.lt.u32 %p1, %r3, 16;\n@%p1 bra $L_b;\nst.shared.u32 [%r2], %r1;\n"
                         "bra.uni $L_t;\n$L_b:\nst.shared.u32 [%r2+4], %r1;\nsetp.lt.u32 %p2, %r3, 8;\n@%p2 bra $L_end;\n$L_t:\n"
                         "shl.b32 %r4, %r1, 2;\nadd.u32 %r5, %r2, %r4;\nst.shared.u32 [%r5+64], %r1;\n$L_end:");
  const PtxClaimResult v = decide(r, 2, "conflict-free");
  EXPECT_EQ(v.verdict.kind, Verdict::Kind::unknown) << v.verdict.detail;
  EXPECT_NE(v.verdict.detail.find("divergent control flow"), std::string::npos) << v.verdict.detail;
}

}  // namespace
}  // namespace layoutproof::proofs
