// model/compiled/exec/symbolic_if.hpp: an if/else on a condition over the symbols runs both sides,
// each lane active on a side exactly where its condition picks that side (checked against the
// condition evaluated at every CTA and parameter value of a small domain), what the sides agree on
// is known after the join, what they compute differently is not (with the reason), lanes whose own
// branch is known run their side alone, and --max-paths bounds the nesting.
#include "model/compiled/exec/symbolic_if.hpp"

#include <gtest/gtest.h>

#include "model/compiled/ptx_exec.hpp"
#include "model/compiled/ptx_parse.hpp"

namespace layoutproof::compiled {
namespace {

// `k(u64, u32 k)`, 32 threads, every CTA of grid 4: %r1 ctaid.x, %r2 tid.x, %r3 k, %r10 = s;
// `cond` sets %p1, then `@%p1 bra ELSE; other; bra JOIN; ELSE: taken; JOIN: after`.
std::string if_kernel(const std::string& cond, const std::string& other, const std::string& taken, const std::string& after) {
  return ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n"
         ".reqntid 32, 1, 1\n{\n.reg .b32 %r<32>;\n.reg .pred %p<8>;\n.shared .align 16 .b8 s[8192];\n"
         "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %tid.x;\nld.param.u32 %r3, [k_param_1];\nmov.u32 %r10, s;\n" +
         cond + "\n@%p1 bra $ELSE;\n" + other + "\nbra.uni $JOIN;\n$ELSE:\n" + taken + "\n$JOIN:\n" + after + "\nret;\n}\n";
}

struct IfRan {
  Program program;
  Launch launch;
  KernelRun run;
};

IfRan run_if(const std::string& text, std::size_t max_paths = 64) {
  IfRan r{parse_ptx(text, "t.ptx"), {}, {}};
  const std::size_t e = select_entries(r.program, "k").at(0);
  decode_with_callees(r.program, e);
  r.launch.block = {32, 1, 1};
  r.launch.grid = {4, 1, 1};
  r.launch.every_cta = true;
  r.launch.params.assign(2, std::nullopt);
  r.launch.max_paths = max_paths;
  r.run = run_kernel(r.program, e, r.launch);
  return r;
}

// The symbols' values at CTA x and parameter k (every other symbol 0).
std::vector<u64> symbols_at(const KernelRun& run, u64 cta, u64 k) {
  std::vector<u64> p(run.symbols.size(), 0);
  for (std::size_t i = 0; i < run.symbols.size(); ++i) {
    if (run.symbols[i].kind == Symbol::Kind::ctaid) p[i] = cta;
    if (run.symbols[i].kind == Symbol::Kind::param) p[i] = k;
  }
  return symbol_values(run.symbols, p);
}

// Lane l's byte address in site s at (cta, k), or -1 where it is not active there.
i64 lane_address(const KernelRun& run, const Site& s, int l, u64 cta, u64 k) {
  const std::vector<u64> p = symbols_at(run, cta, k);
  i64 found = -1;
  for (const SymbolicIssue& is : s.symbolic) {
    if (!is.active[static_cast<std::size_t>(l)] || !evaluate(run.conds, is.when[static_cast<std::size_t>(l)], p)) continue;
    EXPECT_EQ(found, -1) << "lane " << l << " active in two issues of line " << s.line;
    found = static_cast<i64>(mask_bits(evaluate(is.addr[static_cast<std::size_t>(l)], p), 32));
  }
  for (const auto& ins : s.trace.instructions)
    if (ins.addr[static_cast<std::size_t>(l)] >= 0) {
      EXPECT_EQ(found, -1) << "lane " << l << " active in two issues of line " << s.line;
      found = ins.addr[static_cast<std::size_t>(l)];
    }
  return found;
}

const std::string kIfCond = "add.s32 %r4, %r1, %r2;\nsetp.lt.s32 %p1, %r4, %r3;";  // ctaid + tid < k
const std::string kIfOther = "shl.b32 %r5, %r2, 3;\nadd.s32 %r6, %r10, %r5;\nst.shared.u32 [%r6], %r2;\nshl.b32 %r15, %r2, 2;";
const std::string kIfTaken = "shl.b32 %r5, %r2, 2;\nadd.s32 %r6, %r10, %r5;\nst.shared.u32 [%r6], %r2;\nshl.b32 %r15, %r2, 2;";

TEST(SymbolicIf, EachLaneRunsTheSideItsConditionPicks) {
  const IfRan r = run_if(if_kernel(kIfCond, kIfOther, kIfTaken, "add.s32 %r16, %r10, %r15;\nld.shared.u32 %r17, [%r16];"));
  ASSERT_TRUE(r.run.stopped.empty()) << r.run.stopped;
  ASSERT_EQ(r.run.sites.size(), 3u);
  const Site &other = r.run.sites[0], &taken = r.run.sites[1], &after = r.run.sites[2];
  for (u64 cta = 0; cta < 4; ++cta)
    for (u64 k = 0; k < 40; ++k)
      for (int l = 0; l < 32; ++l) {
        const bool picks_taken = static_cast<i64>(cta) + l < static_cast<i64>(k);
        EXPECT_EQ(lane_address(r.run, taken, l, cta, k), picks_taken ? 4 * l : -1) << "cta " << cta << " k " << k << " lane " << l;
        EXPECT_EQ(lane_address(r.run, other, l, cta, k), picks_taken ? -1 : 8 * l) << "cta " << cta << " k " << k << " lane " << l;
      }
  // %r15 is tid * 4 on both sides: after the join the load's address is known, every lane active.
  ASSERT_TRUE(after.unknown.empty()) << after.unknown;
  ASSERT_EQ(after.trace.instructions.size(), 1u);
  for (int l = 0; l < 32; ++l) EXPECT_EQ(after.trace.instructions[0].addr[static_cast<std::size_t>(l)], 4 * l);
}

TEST(SymbolicIf, WhatTheSidesComputeDifferentlyIsNotKnownAfterTheJoin) {
  const std::string other = kIfOther + "\nmov.u32 %r15, 64;";
  const IfRan r = run_if(if_kernel(kIfCond, other, kIfTaken, "add.s32 %r16, %r10, %r15;\nld.shared.u32 %r17, [%r16];"));
  ASSERT_EQ(r.run.sites.size(), 3u);
  EXPECT_NE(r.run.sites[2].unknown.find("compute differently"), std::string::npos) << r.run.sites[2].unknown;
}

TEST(SymbolicIf, ALaneWhoseBranchIsKnownRunsItsSideAlone) {
  // Lanes 0..15: %p1 is true whatever the symbols (tid < 16); 16..31: ctaid < k.
  const std::string cond = "setp.lt.u32 %p2, %r2, 16;\nsetp.lt.s32 %p3, %r1, %r3;\nor.pred %p1, %p2, %p3;";
  const IfRan r = run_if(if_kernel(cond, kIfOther, kIfTaken, "add.s32 %r16, %r10, %r15;\nld.shared.u32 %r17, [%r16];"));
  ASSERT_TRUE(r.run.stopped.empty()) << r.run.stopped;
  ASSERT_EQ(r.run.sites.size(), 3u);
  for (u64 cta = 0; cta < 4; ++cta)
    for (u64 k = 0; k < 6; ++k)
      for (int l = 0; l < 32; ++l) {
        const bool picks_taken = l < 16 || cta < k;
        EXPECT_EQ(lane_address(r.run, r.run.sites[1], l, cta, k), picks_taken ? 4 * l : -1) << "cta " << cta << " k " << k << " lane " << l;
        EXPECT_EQ(lane_address(r.run, r.run.sites[0], l, cta, k), picks_taken ? -1 : 8 * l) << "cta " << cta << " k " << k << " lane " << l;
      }
  EXPECT_TRUE(r.run.sites[2].unknown.empty()) << r.run.sites[2].unknown;
}

TEST(SymbolicIf, NestingPastMaxPathsStopsWithTheReason) {
  // The taken side splits again on ctaid > 1: 4 paths at once.
  const std::string taken = "setp.gt.s32 %p4, %r1, 1;\n@%p4 bra $IN;\n" + kIfTaken + "\nbra.uni $INJ;\n$IN:\n" + kIfOther + "\n$INJ:";
  const std::string after = "ld.shared.u32 %r17, [%r10];";
  const IfRan four = run_if(if_kernel(kIfCond, kIfOther, taken, after), 4);
  EXPECT_TRUE(four.run.stopped.empty()) << four.run.stopped;
  const IfRan two = run_if(if_kernel(kIfCond, kIfOther, taken, after), 2);
  EXPECT_NE(two.run.stopped.find("more than 2 paths at once"), std::string::npos) << two.run.stopped;
  EXPECT_NE(two.run.stopped.find("--max-paths"), std::string::npos) << two.run.stopped;
  // The other side of the outer if/else comes after where the lanes stopped: its issues are missing.
  ASSERT_FALSE(two.run.sites.empty());
  EXPECT_TRUE(two.run.sites[0].after_stop);
}

}  // namespace
}  // namespace layoutproof::compiled
