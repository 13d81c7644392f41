// model/compiled/ptx_cfg.hpp: immediate post-dominators of small functions, checked against the
// definition (every path to exit passes ipdom(i); no nearer instruction does) computed here by
// brute force, and which divergent regions have separate paths.
#include "model/compiled/ptx_cfg.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "model/compiled/ptx_parse.hpp"

namespace layoutproof::compiled {
namespace {

Program decoded(const std::string& body) {
  Program p = parse_ptx(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<8>;\n"
                        ".reg .pred %p<4>;\n" + body + "\n}\n", "t.ptx");
  decode_with_callees(p, 0);
  return p;
}

// x post-dominates i (x != i): no path from i reaches exit while avoiding x (brute force).
bool post_dominates(const Function& f, u32 x, u32 i) {
  const u32 n = static_cast<u32>(f.code.size());
  std::vector<bool> seen(n + 1, false);
  std::function<bool(u32)> escapes = [&](u32 v) {
    if (v == n) return true;
    if (v == x || seen[v]) return false;
    seen[v] = true;
    for (const u32 w : successors(f, v))
      if (escapes(w)) return true;
    return false;
  };
  seen[i] = true;
  for (const u32 w : successors(f, i))
    if (escapes(w)) return false;
  return true;
}

// ipdom(i) post-dominates i, and every post-dominator of i post-dominates ipdom(i) (it is nearest).
void expect_ipdoms_match_the_definition(const Function& f) {
  const Cfg g = build_cfg(f);
  const u32 n = static_cast<u32>(f.code.size());
  for (u32 i = 0; i < n; ++i) {
    if (g.ipdom[i] == Cfg::kNone) continue;
    const u32 d = g.ipdom[i];
    EXPECT_TRUE(d == n || post_dominates(f, d, i)) << i;
    for (u32 x = 0; x < n; ++x)
      if (x != i && x != d && post_dominates(f, x, i)) EXPECT_TRUE(d != n && post_dominates(f, x, d)) << i << " " << x;
  }
}

TEST(PtxCfg, IfElseJoinsAfterBothPaths) {
  // 0: @p bra 3; 1: A; 2: bra 4; 3: B; 4: C; 5: ret
  const Program p = decoded("@%p1 bra $L_b;\nmov.u32 %r1, 1;\nbra.uni $L_c;\n$L_b:\nmov.u32 %r1, 2;\n$L_c:\nmov.u32 %r2, %r1;\nret;");
  const Function& f = p.functions[0];
  const Cfg g = build_cfg(f);
  ASSERT_EQ(g.exit, 6u);
  EXPECT_EQ(g.ipdom, (std::vector<u32>{4, 2, 4, 4, 5, 6}));
  EXPECT_TRUE(separate_paths(f, g, 0));
  expect_ipdoms_match_the_definition(f);
}

TEST(PtxCfg, LoopsEarlyReturnsAndEndlessLoops) {
  // 0: mov; 1: L: add; 2: setp; 3: @p bra L; 4: @q ret; 5: mov; 6: (fall off the end)
  const Program p = decoded("mov.u32 %r1, 0;\n$L:\nadd.u32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 4;\n@%p1 bra $L;\n@%p2 ret;\n"
                            "mov.u32 %r2, 1;");
  const Function& f = p.functions[0];
  const Cfg g = build_cfg(f);
  EXPECT_EQ(g.ipdom[3], 4u);         // the loop's exit
  EXPECT_EQ(g.ipdom[4], g.exit);     // a guarded return joins at the function's end
  EXPECT_TRUE(separate_paths(f, g, 3));
  EXPECT_TRUE(separate_paths(f, g, 4));
  expect_ipdoms_match_the_definition(f);
  // An endless loop has no post-dominator: no join, not separate.
  const Program e = decoded("$L:\n@%p1 bra $L;\nbra.uni $L;");
  const Cfg ge = build_cfg(e.functions[0]);
  EXPECT_EQ(ge.ipdom[0], Cfg::kNone);
  EXPECT_FALSE(separate_paths(e.functions[0], ge, 0));
}

TEST(PtxCfg, PathsThatMeetBeforeTheJoinAreNotSeparate) {
  // 0: @p bra B; 1: A; 2: bra T; 3: B: ..; 4: @q bra END; 5: T: ..; 6: END: ret
  const Program p = decoded("@%p1 bra $L_b;\nmov.u32 %r1, 1;\nbra.uni $L_t;\n$L_b:\nmov.u32 %r1, 2;\n@%p2 bra $L_end;\n$L_t:\n"
                            "mov.u32 %r2, 3;\n$L_end:\nret;");
  const Function& f = p.functions[0];
  const Cfg g = build_cfg(f);
  EXPECT_EQ(g.ipdom[0], 6u);
  EXPECT_FALSE(separate_paths(f, g, 0));
  EXPECT_TRUE(separate_paths(f, g, 4));  // the inner branch: T or END directly
  expect_ipdoms_match_the_definition(f);
}

}  // namespace
}  // namespace layoutproof::compiled
