// model/compiled/exec/data_equality.hpp: which guards are equality tests of the registers as they
// are at the branch (a setp in straight-line code before it, nothing writing them between), and
// what a lane then learns on the equal side: the last-CTA pattern's counter, a loop bounded by it.
#include "model/compiled/exec/data_equality.hpp"

#include <gtest/gtest.h>

#include "model/compiled/ptx_exec.hpp"
#include "model/compiled/ptx_parse.hpp"

namespace layoutproof::compiled {
namespace {

std::string kernel(const std::string& body) {
  return ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<32>;\n.reg .pred %p<8>;\n"
         ".shared .align 16 .b8 s[8192];\nmov.u32 %r1, %tid.x;\nmov.u32 %r3, s;\nshl.b32 %r2, %r1, 2;\nadd.u32 %r2, %r2, %r3;\n" +
         body + "\nret;\n}\n";
}

Program decoded(const std::string& body) {
  Program p = parse_ptx(kernel(body), "t.ptx");
  decode_with_callees(p, select_entries(p, "k").at(0));
  return p;
}

// The last guarded branch or return of k.
u32 last_guarded(const Function& f) {
  for (u32 pc = static_cast<u32>(f.code.size()); pc-- > 0;)
    if (f.code[pc].guard >= 0 && (f.code[pc].code.op == Op::ret || f.code[pc].code.op == Op::bra)) return pc;
  ADD_FAILURE() << "no guarded branch";
  return 0;
}

std::optional<DataEquality> test_of(const std::string& body) {
  const Program p = decoded(body);
  const Function& f = p.functions[select_entries(p, "k").at(0)];
  return equality_test(f, branch_targets(f), last_guarded(f));
}

TEST(DataEquality, ASetpJustBeforeItsBranchIsATest) {
  const auto e = test_of("ld.shared.u32 %r11, [%r3];\nsetp.ne.u32 %p3, %r11, 5;\n@%p3 ret;");
  ASSERT_TRUE(e);
  EXPECT_FALSE(e->when);  // the guard is false where %r11 == 5
  EXPECT_EQ(e->y.kind, Operand::Kind::imm);
  const auto eq = test_of("ld.shared.u32 %r11, [%r3];\nmov.u32 %r12, 7;\nsetp.eq.u32 %p3, %r11, %r12;\nadd.u32 %r13, %r1, 1;\n@%p3 ret;");
  ASSERT_TRUE(eq);
  EXPECT_TRUE(eq->when);
}

TEST(DataEquality, NothingIsLearnedWhereTheValuesMayHaveChanged) {
  // The tested register reloaded, the guard rewritten, a branch target between, a compare that
  // is no equality, and a combining `or`: none is a test of the values at the branch.
  EXPECT_FALSE(test_of("ld.shared.u32 %r11, [%r3];\nsetp.ne.u32 %p3, %r11, 5;\nld.shared.u32 %r11, [%r3+4];\n@%p3 ret;"));
  EXPECT_FALSE(test_of("ld.shared.u32 %r11, [%r3];\nsetp.ne.u32 %p3, %r11, 5;\nnot.pred %p3, %p3;\n@%p3 ret;"));
  EXPECT_FALSE(test_of("ld.shared.u32 %r11, [%r3];\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 bra $L;\nsetp.ne.u32 %p3, %r11, 5;\n$L:\n@%p3 ret;"));
  EXPECT_FALSE(test_of("ld.shared.u32 %r11, [%r3];\nsetp.ne.u32 %p3, %r11, 5;\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 bra $L;\n$L:\n@%p3 ret;"));
  EXPECT_FALSE(test_of("ld.shared.u32 %r11, [%r3];\nsetp.lt.u32 %p3, %r11, 5;\n@%p3 ret;"));
  EXPECT_FALSE(test_of("ld.shared.u32 %r11, [%r3];\nsetp.ne.or.u32 %p3, %r11, 5, %p1;\n@%p3 ret;"));
}

// `if (s[0] != 5) return;` then a loop of s[0] iterations storing at s[tid + 32 i] and a store at
// s[tid + s[0]]: past the return the count is 5, so the loop runs 5 times and both stores' lanes
// are known (the executed counts stay unknown: they run only where the data says 5).
TEST(DataEquality, PastTheTestTheDataHasTheTestedValue) {
  Program p = decoded(
      "ld.shared.u32 %r11, [%r3];\nsetp.ne.u32 %p3, %r11, 5;\n@%p3 ret;\n"
      "mov.u32 %r12, 0;\n$LOOP:\nshl.b32 %r13, %r12, 7;\nadd.u32 %r13, %r13, %r2;\nst.shared.u32 [%r13+4096], %r1;\n"
      "add.u32 %r12, %r12, 1;\nsetp.lt.u32 %p4, %r12, %r11;\n@%p4 bra $LOOP;\n"
      "shl.b32 %r14, %r11, 2;\nadd.u32 %r14, %r14, %r2;\nst.shared.u32 [%r14], %r1;");
  Launch l;
  l.block = {32, 1, 1};
  const KernelRun r = run_kernel(p, select_entries(p, "k").at(0), l);
  ASSERT_EQ(r.sites.size(), 3u);  // the load, the loop's store, the last store
  EXPECT_TRUE(r.stopped.empty()) << r.stopped;
  const Site& loop = r.sites[1];
  ASSERT_EQ(loop.symbolic.size(), 5u) << "one issue per iteration of the 5";
  const Site& last = r.sites[2];
  ASSERT_EQ(last.symbolic.size(), 1u);
  for (int k = 0; k < kWarpLanes; ++k) EXPECT_EQ(last.symbolic[0].addr[static_cast<std::size_t>(k)].c0, static_cast<u64>(4 * (k + 5))) << k;
}

}  // namespace
}  // namespace layoutproof::compiled
