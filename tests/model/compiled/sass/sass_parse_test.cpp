// model/compiled/sass/sass_parse.hpp: SASS text read and lowered into the one IR: the program's
// format and window, one decoded entry per Function, each instruction's offset, the lowering's
// address arithmetic run by the one executor, what is not modelled named, malformed text refused.
#include "model/compiled/sass/sass_parse.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "model/compiled/ptx_exec.hpp"
#include "model/compiled/ptx_parse.hpp"
#include "model/layout/notation.hpp"  // ParseError

namespace layoutproof::compiled {
namespace {

std::string listing(const std::string& body) { return "\tcode for sm_90\n\t\tFunction : _Z4rowsPf\n" + body; }

// lane k stores at window byte 0x400 + 16 * (k / 2) + 4 * (k % 2): LEA, IMAD.SHL, LOP3 (and), IADD3.
const char* kRows =
    "        /*0000*/                   S2R R0, SR_TID.X ;\n"
    "        /*0010*/                   SHF.R.U32.HI R1, RZ, 0x1, R0 ;\n"
    "        /*0020*/                   LOP3.LUT R2, R0, 0x1, RZ, 0xc0, !PT ;\n"
    "        /*0030*/                   IMAD.SHL.U32 R2, R2, 0x4, RZ ;\n"
    "        /*0040*/                   LEA R3, R1, R2, 0x4 ;\n"
    "        /*0050*/                   STS [R3+0x400], R0 ;\n"
    "        /*0060*/                   EXIT ;\n";

KernelRun run(Program& p) {
  decode_with_callees(p, 0);
  Launch l;
  l.block = {32, 1, 1};
  l.params.assign(p.functions[0].params.size(), u64{0});
  return run_kernel(p, 0, l);
}

TEST(SassParse, ReadsAFunctionAsADecodedEntryInTheWindow) {
  Program p = parse_sass(listing(kRows), "rows.sass");
  EXPECT_EQ(p.format, CompiledFormat::sass);
  EXPECT_EQ(p.shared_window_base, 0x400);  // user memory after the driver's 1 KiB
  ASSERT_EQ(p.functions.size(), 1u);
  EXPECT_TRUE(p.functions[0].is_entry);
  EXPECT_EQ(p.functions[0].name, "_Z4rowsPf");
  EXPECT_EQ(select_entries(p, "rows(float*)").size(), 1u);
  const KernelRun r = run(p);
  ASSERT_EQ(r.sites.size(), 1u);
  const Site& s = r.sites[0];
  EXPECT_EQ(s.trace.op, SmemOp::st);
  EXPECT_EQ(s.width_bytes, 4);
  ASSERT_EQ(s.trace.instructions.size(), 1u);
  for (int k = 0; k < kWarpLanes; ++k)
    EXPECT_EQ(s.trace.instructions[0].addr[static_cast<std::size_t>(k)], 0x400 + 16 * (k / 2) + 4 * (k % 2)) << "lane " << k;
}

TEST(SassParse, EveryListedInstructionIsLoweredWithItsOffset) {
  Program p = parse_sass(listing(kRows), "rows.sass");
  decode_with_callees(p, 0);
  std::set<i64> offsets;
  bool sts = false;
  for (const Instr& in : p.functions[0].code) {
    if (in.sass_offset < 0) continue;  // what the reader adds of its own
    offsets.insert(in.sass_offset);
    if (in.sass_offset == 0x50) sts = sts || p.text_of(in).find("STS") != std::string::npos;
  }
  EXPECT_EQ(offsets, (std::set<i64>{0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60}));
  EXPECT_TRUE(sts);
}

TEST(SassParse, WidthsAndMatrixForms) {
  Program p = parse_sass(listing("        /*0000*/                   S2R R0, SR_TID.X ;\n"
                                 "        /*0010*/                   IMAD.SHL.U32 R4, R0, 0x10, RZ ;\n"
                                 "        /*0020*/                   LDS.128 R8, [R4] ;\n"
                                 "        /*0030*/                   LDSM.16.M88.4 R12, [R4] ;\n"
                                 "        /*0040*/                   EXIT ;\n"),
                         "w.sass");
  const KernelRun r = run(p);
  ASSERT_EQ(r.sites.size(), 2u);
  EXPECT_EQ(r.sites[0].width_bytes, 16);
  EXPECT_EQ(r.sites[0].trace.op, SmemOp::ld);
  EXPECT_EQ(r.sites[1].trace.op, SmemOp::ldsm4);
  EXPECT_EQ(r.sites[0].trace.instructions.at(0).addr[3], 48);
}

TEST(SassParse, WhatIsNotModelledIsNamedNotGuessed) {
  Program p = parse_sass(listing("        /*0000*/                   S2R R0, SR_TID.X ;\n"
                                 "        /*0010*/                   I2F R1, R0 ;\n"
                                 "        /*0020*/                   LDS R5, [R1] ;\n"
                                 "        /*0030*/                   EXIT ;\n"),
                         "f.sass");
  const KernelRun r = run(p);
  ASSERT_EQ(r.sites.size(), 1u);
  EXPECT_EQ(r.sites[0].unknown_issues, 1);
  EXPECT_NE(r.sites[0].unknown.find("I2F"), std::string::npos) << r.sites[0].unknown;
}

TEST(SassParse, MalformedTextIsRefusedAndPtxIsNotSass) {
  EXPECT_THROW((void)parse_sass(listing("        /*0000*/                   STS [R3+, R0 ;\n"), "bad.sass"), ParseError);
  EXPECT_THROW((void)parse_sass(listing("        /*0000*/                   BRA 0x990 ;\n"), "bra.sass"), ParseError);
  EXPECT_TRUE(looks_like_sass(listing(kRows)));
  EXPECT_FALSE(looks_like_sass(".version 8.0\n.target sm_90\n.visible .entry k()\n{\nret;\n}\n"));
}

}  // namespace
}  // namespace layoutproof::compiled
