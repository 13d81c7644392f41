// model/compiled/sass/sass_parse.hpp: SASS text read and lowered into the one IR: the program's
// format and window, one decoded entry per Function, each instruction's offset, the lowering's
// address arithmetic run by the one executor, what is not modelled named, malformed text refused.
#include "model/compiled/sass/sass_parse.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "model/compiled/ptx_exec.hpp"
#include "model/compiled/ptx_parse.hpp"
#include "model/compiled/sass/sass_lower.hpp"
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
                                 "        /*0010*/                   MUFU.EX2 R1, R0 ;\n"
                                 "        /*0020*/                   LDS R5, [R1] ;\n"
                                 "        /*0030*/                   EXIT ;\n"),
                         "f.sass");
  const KernelRun r = run(p);
  ASSERT_EQ(r.sites.size(), 1u);
  EXPECT_EQ(r.sites[0].unknown_issues, 1);
  EXPECT_NE(r.sites[0].unknown.find("MUFU"), std::string::npos) << r.sites[0].unknown;
}

TEST(SassParse, MalformedTextIsRefusedAndPtxIsNotSass) {
  EXPECT_THROW((void)parse_sass(listing("        /*0000*/                   STS [R3+, R0 ;\n"), "bad.sass"), ParseError);
  EXPECT_THROW((void)parse_sass(listing("        /*0000*/                   BRA 0x990 ;\n"), "bra.sass"), ParseError);
  EXPECT_TRUE(looks_like_sass(listing(kRows)));
  EXPECT_FALSE(looks_like_sass(".version 8.0\n.target sm_90\n.visible .entry k()\n{\nret;\n}\n"));
}

}  // namespace
}  // namespace layoutproof::compiled

namespace layoutproof::compiled {
namespace {

// ptxas's unsigned division and remainder (here tid / d and tid % d for d = blockDim.x / 8, read as
// CUDA 13 reads blockDim.x: c[0x0][RZ]): I2F.U32.RP, MUFU.RCP of it, F2I, IMAD.HI.U32 with a
// register-pair addend, and the two correction steps. Lane k stores at 0x400 + 64 * q + 4 * r,
// checked against C++'s / and % for every block size 8..1024 step 8 and every lane of the first
// warp (a brute-force twin of the lowering).
const char* kDivide =
    "        /*0000*/                   S2R R0, SR_TID.X ;\n"
    "        /*0010*/                   LDC R9, c[0x0][RZ] ;\n"
    "        /*0020*/                   SHF.R.U32.HI R9, RZ, 0x3, R9 ;\n"
    "        /*0030*/                   I2F.U32.RP R4, R9 ;\n"
    "        /*0040*/                   MUFU.RCP R4, R4 ;\n"
    "        /*0050*/                   IADD3 R2, R4, 0xffffffe, RZ ;\n"
    "        /*0060*/                   F2I.FTZ.U32.TRUNC.NTZ R3, R2 ;\n"
    "        /*0070*/                   HFMA2.MMA R2, -RZ, RZ, 0, 0 ;\n"
    "        /*0080*/                   IADD3 R5, RZ, -R9, RZ ;\n"
    "        /*0090*/                   IMAD R5, R5, R3, RZ ;\n"
    "        /*00a0*/                   IMAD.HI.U32 R3, R3, R5, R2 ;\n"
    "        /*00b0*/                   IMAD.HI.U32 R3, R3, R0, RZ ;\n"
    "        /*00c0*/                   IADD3 R5, -R3, RZ, RZ ;\n"
    "        /*00d0*/                   IMAD R5, R9, R5, R0 ;\n"
    "        /*00e0*/                   ISETP.GE.U32.AND P0, PT, R5, R9, PT ;\n"
    "        /*00f0*/               @P0 IADD3 R5, R5, -R9, RZ ;\n"
    "        /*0100*/               @P0 IADD3 R3, R3, 0x1, RZ ;\n"
    "        /*0110*/                   ISETP.GE.U32.AND P1, PT, R5, R9, PT ;\n"
    "        /*0120*/               @P1 IADD3 R5, R5, -R9, RZ ;\n"
    "        /*0130*/               @P1 IADD3 R3, R3, 0x1, RZ ;\n"
    "        /*0140*/                   IMAD.SHL.U32 R3, R3, 0x40, RZ ;\n"
    "        /*0150*/                   LEA R6, R5, R3, 0x2 ;\n"
    "        /*0160*/                   STS [R6+0x400], R0 ;\n"
    "        /*0170*/              @!PT LDS RZ, [RZ] ;\n"
    "        /*0180*/                   EXIT ;\n";

TEST(SassDivision, PtxasIntegerDivisionIsExactForEveryDivisor) {
  for (i64 threads = 8; threads <= 1024; threads += 8) {
    Program p = parse_sass(listing(kDivide), "div.sass");
    decode_with_callees(p, 0);
    Launch l;
    l.block = {threads, 1, 1};
    l.params.assign(p.functions[0].params.size(), u64{0});
    const KernelRun r = run_kernel(p, 0, l);
    ASSERT_TRUE(r.stopped.empty()) << threads << ": " << r.stopped;
    ASSERT_EQ(r.sites.size(), 2u);
    const Site& s = r.sites[0];
    ASSERT_TRUE(s.counts_known) << threads << ": " << s.unknown;
    const i64 d = threads / 8;
    ASSERT_FALSE(s.trace.instructions.empty());
    const TraceInstruction& first = s.trace.instructions[0];  // warp 0
    for (int k = 0; k < kWarpLanes && k < threads; ++k)
      EXPECT_EQ(first.addr[static_cast<std::size_t>(k)], 0x400 + 64 * (k / d) + 4 * (k % d)) << "block " << threads << ", lane " << k;
    EXPECT_TRUE(r.sites[1].never);  // @!PT LDS: no claim is about it
  }
}

// The same division over the 32-bit range: divisor d = c[0x0][0x210] and numerator n = tid * m + b
// (c[0x0][0x214], c[0x0][0x218]) from the parameter buffer, lane k storing at 0x400 + 4 * ((q ^ r) & 63)
// for q = n / d, r = n % d; against C++'s / and % for divisors from 1 to 2^32 - 1, numerators up
// to 2^32 - 1.
TEST(SassDivision, ExactOverTheThirtyTwoBitRange) {
  std::string body = kDivide;
  const auto replace = [&](const std::string& from, const std::string& to) { body.replace(body.find(from), from.size(), to); };
  replace("LDC R9, c[0x0][RZ] ;", "LDC R9, c[0x0][0x210] ;");
  replace("SHF.R.U32.HI R9, RZ, 0x3, R9 ;", "LDC R8, c[0x0][0x214] ;");
  replace("HFMA2.MMA R2, -RZ, RZ, 0, 0 ;", "HFMA2.MMA R2, -RZ, RZ, 0, 0 ;\n        /*0075*/                   LDC R7, c[0x0][0x218] ;");
  replace("IMAD.HI.U32 R3, R3, R0, RZ ;", "IMAD R0, R0, R8, R7 ;\n        /*00a8*/                   IMAD.HI.U32 R3, R3, R0, RZ ;");
  replace("IMAD.SHL.U32 R3, R3, 0x40, RZ ;", "LOP3.LUT R3, R3, R5, RZ, 0x3c, !PT ;");
  replace("LEA R6, R5, R3, 0x2 ;", "LOP3.LUT R3, R3, 0x3f, RZ, 0xc0, !PT ;\n        /*0158*/                   IMAD.SHL.U32 R6, R3, 0x4, RZ ;");
  const u32 divisors[] = {1, 2, 3, 7, 10, 255, 256, 1000, 65535, 65537, 0x12345678u, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};
  const u32 muls[] = {1, 0x01010101u, 0x7ffffffu, 0x8421084u};
  for (const u32 d : divisors)
    for (const u32 mul : muls) {
      const u32 add = 0xffffffffu - 31 * mul;  // lane 31's numerator is 2^32 - 1
      Program p = parse_sass(listing(body), "div32.sass");
      decode_with_callees(p, 0);
      Launch l;
      l.block = {32, 1, 1};
      l.params.assign(p.functions[0].params.size(), std::nullopt);
      l.fields = {{0, 0, 4, d}, {0, 4, 4, mul}, {0, 8, 4, add}};
      const KernelRun r = run_kernel(p, 0, l);
      ASSERT_TRUE(r.stopped.empty()) << d << ": " << r.stopped;
      ASSERT_TRUE(r.sites[0].counts_known) << d << ", " << mul << ": " << r.sites[0].unknown;
      const TraceInstruction& in = r.sites[0].trace.instructions[0];
      for (int k = 0; k < kWarpLanes; ++k) {
        const u32 n = static_cast<u32>(k) * mul + add;
        EXPECT_EQ(in.addr[static_cast<std::size_t>(k)], 0x400 + 4 * (((n / d) ^ (n % d)) & 63)) << "d " << d << ", n " << n;
      }
    }
}

// A MUFU.RCP that is not the division's (no I2F.RP before it) stays not modelled: its last bits
// are the hardware's.
TEST(SassDivision, OtherReciprocalsAreNotModelled) {
  Program p = parse_sass(listing("        /*0000*/                   S2R R0, SR_TID.X ;\n"
                                 "        /*0010*/                   I2F.U32 R4, R0 ;\n"
                                 "        /*0020*/                   MUFU.RCP R4, R4 ;\n"
                                 "        /*0030*/                   F2I.FTZ.U32.TRUNC.NTZ R3, R4 ;\n"
                                 "        /*0040*/                   STS [R3+0x400], R0 ;\n"
                                 "        /*0050*/                   EXIT ;\n"),
                         "rcp.sass");
  decode_with_callees(p, 0);
  Launch l;
  l.block = {32, 1, 1};
  l.params.assign(p.functions[0].params.size(), u64{0});
  const KernelRun r = run_kernel(p, 0, l);
  ASSERT_EQ(r.sites.size(), 1u);
  EXPECT_FALSE(r.sites[0].counts_known);
  EXPECT_NE(r.sites[0].unknown.find("MUFU.RCP"), std::string::npos) << r.sites[0].unknown;
}

// nvdisasm -gi: the line, then each call site it was inlined at; the user's line is the last.
TEST(SassParse, InlinedLinesNameTheOutermostCallSite) {
  Program p = parse_sass("\tcode for sm_90\n\t\tFunction : _Z4rowsPf\n"
                         "\t//## File \"/c/copy_sm80.hpp\", line 64 inlined at \"/c/algo.hpp\", line 9 inlined at \"/k/k.cu\", line 120\n"
                         "        /*0000*/                   S2R R0, SR_TID.X ;\n"
                         "        /*0010*/                   EXIT ;\n",
                         "gi.sass");
  decode_with_callees(p, 0);
  const Function& f = p.functions[0];
  const auto s2r = std::find_if(f.code.begin(), f.code.end(), [](const Instr& in) { return in.sass_offset == 0; });
  ASSERT_NE(s2r, f.code.end());
  EXPECT_EQ(p.source_of(f, *s2r), "/k/k.cu:120");
  EXPECT_EQ(p.inlined_of(f, *s2r), "/c/copy_sm80.hpp:64");
}

}  // namespace
}  // namespace layoutproof::compiled

namespace layoutproof::compiled {
namespace {

// A 64-bit compare as ptxas writes it (size_t loop bounds): ISETP.<cmp>.U32 on the low words,
// then ISETP.<cmp>.U32.AND.EX on the high words with the low result as carry-in. Lane k's value
// is (hi = k >> 4, lo = k & 15) against (1, 8); a lane whose compare holds exits, the others store:
// checked against C++'s 64-bit compare for each of the six comparisons.
TEST(SassCompare, SixtyFourBitComparesThroughEx) {
  const std::pair<const char*, bool (*)(u64, u64)> cmps[] = {
      {"GE", [](u64 a, u64 b) { return a >= b; }}, {"GT", [](u64 a, u64 b) { return a > b; }},
      {"LE", [](u64 a, u64 b) { return a <= b; }}, {"LT", [](u64 a, u64 b) { return a < b; }},
      {"EQ", [](u64 a, u64 b) { return a == b; }}, {"NE", [](u64 a, u64 b) { return a != b; }}};
  for (const auto& [name, holds] : cmps) {
    const std::string c = name;
    Program p = parse_sass(listing("        /*0000*/                   S2R R0, SR_TID.X ;\n"
                                   "        /*0010*/                   SHF.R.U32.HI R1, RZ, 0x4, R0 ;\n"
                                   "        /*0020*/                   LOP3.LUT R2, R0, 0xf, RZ, 0xc0, !PT ;\n"
                                   "        /*0030*/                   ISETP." + c + ".U32.AND P0, PT, R2, 0x8, PT ;\n"
                                   "        /*0040*/                   ISETP." + c + ".U32.AND.EX P0, PT, R1, 0x1, PT, P0 ;\n"
                                   "        /*0050*/               @P0 EXIT ;\n"
                                   "        /*0060*/                   IMAD.SHL.U32 R3, R0, 0x4, RZ ;\n"
                                   "        /*0070*/                   STS [R3+0x400], R0 ;\n"
                                   "        /*0080*/                   EXIT ;\n"),
                           "cmp.sass");
    const KernelRun r = run(p);
    ASSERT_TRUE(r.stopped.empty()) << c << ": " << r.stopped;
    ASSERT_EQ(r.sites.size(), 1u);
    const auto& issues = r.sites[0].trace.instructions;
    for (int k = 0; k < kWarpLanes; ++k) {
      const u64 a = (u64(k >> 4) << 32) | u64(k & 15), b = (u64{1} << 32) | 8;
      const bool stores = !holds(a, b);
      bool stored = false;
      for (const TraceInstruction& in : issues) stored = stored || in.addr[static_cast<std::size_t>(k)] == 0x400 + 4 * k;
      EXPECT_EQ(stored, stores) << c << ", lane " << k;
    }
  }
}

}  // namespace
}  // namespace layoutproof::compiled

namespace layoutproof::compiled {
namespace {

// The thread's stack: STL then LDL at the same address gives back what was stored (a spill), from
// R1 = c[0x0][0x28] as every kernel sets it; a store to an address not known loses every value.
TEST(SassLocal, WhatAThreadSpillsItReadsBack) {
  const std::string head = "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
                           "        /*0010*/                   S2R R0, SR_TID.X ;\n"
                           "        /*0020*/                   IADD3 R1, R1, -0x20, RZ ;\n"
                           "        /*0030*/                   STL [R1+0x8], R0 ;\n";
  const std::string tail = "        /*0060*/                   LDL R2, [R1+0x8] ;\n"
                           "        /*0070*/                   IMAD.SHL.U32 R3, R2, 0x4, RZ ;\n"
                           "        /*0080*/                   STS [R3+0x400], R0 ;\n"
                           "        /*0090*/                   EXIT ;\n";
  Program p = parse_sass(listing(head + "        /*0040*/                   STL.64 [R1+0x10], RZ ;\n"
                                        "        /*0050*/                   NOP ;\n" + tail),
                         "spill.sass");
  const KernelRun r = run(p);
  ASSERT_EQ(r.sites.size(), 1u);
  ASSERT_TRUE(r.sites[0].counts_known) << r.sites[0].unknown;
  for (int k = 0; k < kWarpLanes; ++k) EXPECT_EQ(r.sites[0].trace.instructions[0].addr[static_cast<std::size_t>(k)], 0x400 + 4 * k);
  // A store through a loaded (unknown) address may have overwritten the spill.
  Program q = parse_sass(listing(head + "        /*0040*/                   LDG.E R5, desc[UR4][R6.64] ;\n"
                                        "        /*0050*/                   STL [R5], RZ ;\n" + tail),
                         "lost.sass");
  const KernelRun s = run(q);
  ASSERT_EQ(s.sites.size(), 1u);
  EXPECT_FALSE(s.sites[0].counts_known);
}

}  // namespace
}  // namespace layoutproof::compiled

namespace layoutproof::compiled {
namespace {

// SHFL as the one executor's shfl: lane k stores at 0x400 + 4 * j where j is the lane SHFL.BFLY
// (k ^ 1), SHFL.IDX (lane 3) and SHFL.DOWN (k + 4, itself past the clamp) read tid from.
TEST(SassShfl, ShufflesAsPtxDefinesThem) {
  const std::pair<const char*, int (*)(int)> modes[] = {{"BFLY PT, R1, R0, 0x1, 0x1f", [](int k) { return k ^ 1; }},
                                                        {"IDX PT, R1, R0, 0x3, 0x1f", [](int) { return 3; }},
                                                        {"DOWN PT, R1, R0, 0x4, 0x1f", [](int k) { return k + 4 <= 31 ? k + 4 : k; }}};
  for (const auto& [form, src] : modes) {
    Program p = parse_sass(listing(std::string("        /*0000*/                   S2R R0, SR_TID.X ;\n"
                                               "        /*0010*/                   SHFL.") + form + " ;\n"
                                   "        /*0020*/                   IMAD.SHL.U32 R3, R1, 0x4, RZ ;\n"
                                   "        /*0030*/                   STS [R3+0x400], R0 ;\n"
                                   "        /*0040*/                   EXIT ;\n"),
                           "shfl.sass");
    const KernelRun r = run(p);
    ASSERT_EQ(r.sites.size(), 1u) << form;
    ASSERT_TRUE(r.sites[0].counts_known) << form << ": " << r.sites[0].unknown;
    for (int k = 0; k < kWarpLanes; ++k)
      EXPECT_EQ(r.sites[0].trace.instructions[0].addr[static_cast<std::size_t>(k)], 0x400 + 4 * src(k)) << form << ", lane " << k;
  }
}

}  // namespace
}  // namespace layoutproof::compiled

namespace layoutproof::compiled {
namespace {

// Float immediates (FSEL ... -INF, FADD ... 1.5) read as their binary32 bits, and an operand the
// model does not read (a half selector R0.H1) makes only what it feeds unknown: the file reads.
// Before, either refused the whole file.
TEST(SassParse, FloatImmediatesAndUnreadOperandsDoNotRefuseTheFile) {
  EXPECT_EQ(sass::Lowering::float_literal("-INF"), std::optional<u32>(0xff800000u));
  EXPECT_EQ(sass::Lowering::float_literal("+INF"), std::optional<u32>(0x7f800000u));
  EXPECT_EQ(sass::Lowering::float_literal("1.5"), std::optional<u32>(0x3fc00000u));
  EXPECT_EQ(sass::Lowering::float_literal("-0.25"), std::optional<u32>(0xbe800000u));
  EXPECT_EQ(sass::Lowering::float_literal("QNAN"), std::optional<u32>(0x7fffffffu));
  EXPECT_EQ(sass::Lowering::float_literal("12"), std::nullopt);
  EXPECT_EQ(sass::Lowering::float_literal("0x10"), std::nullopt);
  Program p = parse_sass(listing("        /*0000*/                   S2R R0, SR_TID.X ;\n"
                                 "        /*0010*/                   FSEL R1, RZ, -INF , P0 ;\n"
                                 "        /*0020*/                   HADD2 R4, R0.H1, R0.H0 ;\n"
                                 "        /*0030*/                   IMAD.SHL.U32 R2, R0, 0x4, RZ ;\n"
                                 "        /*0040*/                   STS [R2+0x400], R1 ;\n"
                                 "        /*0050*/                   STS [R4], R1 ;\n"
                                 "        /*0060*/                   EXIT ;\n"),
                         "float.sass");
  const KernelRun r = run(p);
  ASSERT_EQ(r.sites.size(), 2u);
  EXPECT_TRUE(r.sites[0].counts_known);   // its address does not depend on what the model does not read
  EXPECT_FALSE(r.sites[1].counts_known);  // R4 does
}

}  // namespace
}  // namespace layoutproof::compiled

namespace layoutproof::compiled {
namespace {

// nvdisasm -gi as CUDA 13 writes it: one line per level, innermost first, then the user's line alone.
TEST(SassParse, InlinedChainsOverSeveralLines) {
  Program p = parse_sass("\tcode for sm_90\n\t\tFunction : _Z4rowsPf\n"
                         "\t//## File \"/i/helpers.h\", line 97 inlined at \"/i/cg.h\", line 509\n"
                         "\t//## File \"/i/cg.h\", line 509 inlined at \"/k/k.cuh\", line 112\n"
                         "\t//## File \"/k/k.cuh\", line 112\n"
                         "        /*0000*/                   S2R R0, SR_TID.X ;\n"
                         "\t//## File \"/k/k.cuh\", line 113\n"
                         "        /*0010*/                   EXIT ;\n",
                         "gi2.sass");
  decode_with_callees(p, 0);
  const Function& f = p.functions[0];
  const auto at = [&](i64 off) { return std::find_if(f.code.begin(), f.code.end(), [&](const Instr& in) { return in.sass_offset == off; }); };
  ASSERT_NE(at(0), f.code.end());
  EXPECT_EQ(p.source_of(f, *at(0)), "/k/k.cuh:112");
  EXPECT_EQ(p.inlined_of(f, *at(0)), "/i/helpers.h:97");
  ASSERT_NE(at(0x10), f.code.end());
  EXPECT_EQ(p.source_of(f, *at(0x10)), "/k/k.cuh:113");
  EXPECT_EQ(p.inlined_of(f, *at(0x10)), "");
}

}  // namespace
}  // namespace layoutproof::compiled

namespace layoutproof::compiled {
namespace {

// ELECT: the lowest lane of the issue is the leader (its predicate true in it alone, its lane id in
// every lane's destination): only it stores. Here lanes 4.. run it (lanes 0-3 branched away).
TEST(SassElect, TheLowestLaneOfTheIssueLeads) {
  Program p = parse_sass(listing("        /*0000*/                   S2R R0, SR_TID.X ;\n"
                                 "        /*0010*/                   ISETP.GE.U32.AND P1, PT, R0, 0x4, PT ;\n"
                                 "        /*0020*/              @!P1 EXIT ;\n"
                                 "        /*0030*/                   ELECT P0, UR5, PT ;\n"
                                 "        /*0040*/                   MOV R2, UR5 ;\n"
                                 "        /*0050*/                   IMAD.SHL.U32 R3, R2, 0x4, RZ ;\n"
                                 "        /*0060*/               @P0 STS [R3+0x400], R0 ;\n"
                                 "        /*0070*/                   STS [R3+0x800], R0 ;\n"
                                 "        /*0080*/                   EXIT ;\n"),
                         "elect.sass");
  const KernelRun r = run(p);
  ASSERT_EQ(r.sites.size(), 2u);
  ASSERT_TRUE(r.sites[0].counts_known) << r.sites[0].unknown;
  const auto& one = r.sites[0].trace.instructions.at(0).addr;
  for (int k = 0; k < kWarpLanes; ++k) EXPECT_EQ(one[static_cast<std::size_t>(k)], k == 4 ? 0x400 + 16 : -1) << "lane " << k;
  const auto& all = r.sites[1].trace.instructions.at(0).addr;
  for (int k = 4; k < kWarpLanes; ++k) EXPECT_EQ(all[static_cast<std::size_t>(k)], 0x800 + 16) << "lane " << k;
}

// Float arithmetic that decides a branch and an address is evaluated as the GPU does: I2FP (CUDA
// 12's I2F) of the thread index, FMUL.RZ by 0.5, FSETP.GE against 8 (an integer-looking immediate is the float 8.0),
// FSEL of the immediates 1 and RZ (1.0 and 0.0, not the bits 1), FFMA and FMNMX, back through F2I
// into the stores' addresses: lanes 0-15 store at 0x1000 + 4 (64 + tid), lanes 16-31 at 4 tid, and
// every lane at 0x2000 + 4 min(tid, 3).
TEST(SassFloat, ArithmeticDecidesBranchesAndAddresses) {
  Program p = parse_sass(listing("        /*0000*/                   S2R R0, SR_TID.X ;\n"
                                 "        /*0010*/                   I2FP.F32.U32 R1, R0 ;\n"
                                 "        /*0020*/                   FMUL.RZ R2, R1, 0.5 ;\n"
                                 "        /*0030*/                   FSETP.GE.AND P0, PT, R2, 8, PT ;\n"
                                 "        /*0040*/                   FSEL R3, RZ, 1, P0 ;\n"
                                 "        /*0050*/                   FFMA R4, R3, 64, R1 ;\n"
                                 "        /*0060*/                   F2I.FTZ.U32.TRUNC.NTZ R5, R4 ;\n"
                                 "        /*0070*/                   IMAD.SHL.U32 R6, R5, 0x4, RZ ;\n"
                                 "        /*0080*/               @P0 STS [R6], R0 ;\n"
                                 "        /*0090*/              @!P0 STS [R6+0x1000], R0 ;\n"
                                 "        /*00a0*/                   FMNMX R7, -R1, -3, !PT ;\n"
                                 "        /*00b0*/                   FADD R7, -R7, -RZ ;\n"
                                 "        /*00c0*/                   F2I.FTZ.U32.TRUNC.NTZ R8, R7 ;\n"
                                 "        /*00d0*/                   IMAD.SHL.U32 R9, R8, 0x4, RZ ;\n"
                                 "        /*00e0*/                   STS [R9+0x2000], R0 ;\n"
                                 "        /*00f0*/                   EXIT ;\n"),
                         "float.sass");
  const KernelRun r = run(p);
  EXPECT_TRUE(r.stopped.empty()) << r.stopped;
  ASSERT_EQ(r.sites.size(), 3u);
  for (const auto& s : r.sites) ASSERT_TRUE(s.counts_known) << s.line << ": " << s.unknown;
  const auto& hi = r.sites[0].trace.instructions.at(0).addr;
  const auto& lo = r.sites[1].trace.instructions.at(0).addr;
  const auto& clamped = r.sites[2].trace.instructions.at(0).addr;
  for (int k = 0; k < kWarpLanes; ++k) {
    EXPECT_EQ(hi[static_cast<std::size_t>(k)], k >= 16 ? 4 * k : -1) << "lane " << k;
    EXPECT_EQ(lo[static_cast<std::size_t>(k)], k < 16 ? 0x1000 + 4 * (64 + k) : -1) << "lane " << k;
    EXPECT_EQ(clamped[static_cast<std::size_t>(k)], 0x2000 + 4 * std::min(k, 3)) << "lane " << k;  // -max(-tid, -3)
  }
}

// F2F between f32 and f64 (llm.c's trimat kernel widens a float to compare it as a double): the
// thread index as a float, widened, scaled by 0.25 in f64, narrowed, back to an integer address.
TEST(SassFloat, WidensAndNarrowsBetweenF32AndF64) {
  Program p = parse_sass(listing("        /*0000*/                   S2R R0, SR_TID.X ;\n"
                                 "        /*0010*/                   I2FP.F32.U32 R1, R0 ;\n"
                                 "        /*0020*/                   F2F.F64.F32 R2, R1 ;\n"
                                 "        /*0030*/                   DMUL R4, R2, 0.25 ;\n"
                                 "        /*0040*/                   F2F.F32.F64 R6, R2 ;\n"
                                 "        /*0050*/                   F2I.FTZ.U32.TRUNC.NTZ R7, R6 ;\n"
                                 "        /*0060*/                   IMAD.SHL.U32 R8, R7, 0x4, RZ ;\n"
                                 "        /*0070*/                   STS [R8], R0 ;\n"
                                 "        /*0080*/                   EXIT ;\n"),
                         "f2f.sass");
  const KernelRun r = run(p);
  ASSERT_EQ(r.sites.size(), 1u);
  ASSERT_TRUE(r.sites[0].counts_known) << r.sites[0].unknown;
  const auto& a = r.sites[0].trace.instructions.at(0).addr;
  for (int k = 0; k < kWarpLanes; ++k) EXPECT_EQ(a[static_cast<std::size_t>(k)], 4 * k) << "lane " << k;
}

// A float form outside the rules (FMUL.D2's scaling) makes only what it writes unknown, named.
TEST(SassFloat, AFormOutsideTheRulesIsNamed) {
  Program p = parse_sass(listing("        /*0000*/                   S2R R0, SR_TID.X ;\n"
                                 "        /*0010*/                   I2F.U32 R1, R0 ;\n"
                                 "        /*0020*/                   FMUL.D2 R2, R1, 4 ;\n"
                                 "        /*0030*/                   F2I.FTZ.U32.TRUNC.NTZ R5, R2 ;\n"
                                 "        /*0040*/                   IMAD.SHL.U32 R6, R5, 0x4, RZ ;\n"
                                 "        /*0050*/                   STS [R6], R0 ;\n"
                                 "        /*0060*/                   IMAD.SHL.U32 R7, R0, 0x4, RZ ;\n"
                                 "        /*0070*/                   STS [R7+0x400], R0 ;\n"
                                 "        /*0080*/                   EXIT ;\n"),
                         "scaled.sass");
  const KernelRun r = run(p);
  ASSERT_EQ(r.sites.size(), 2u);
  EXPECT_FALSE(r.sites[0].counts_known);
  EXPECT_NE(r.sites[0].unknown.find("FMUL.D2"), std::string::npos) << r.sites[0].unknown;
  EXPECT_TRUE(r.sites[1].counts_known) << r.sites[1].unknown;
}

// An mbarrier wait spin (SYNCS.PHASECHK...TRYWAIT, then a branch back while it fails) completes: the
// code after it runs, and the wait is listed as an mbarrier operation, never counted.
TEST(SassMbarrier, TryWaitSpinCompletes) {
  Program p = parse_sass(listing("        /*0000*/                   S2R R0, SR_TID.X ;\n"
                                 "        /*0010*/                   SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR4+0x10], R3 ;\n"
                                 "        /*0020*/              @!P0 BRA 0x10 ;\n"
                                 "        /*0030*/                   IMAD.SHL.U32 R3, R0, 0x4, RZ ;\n"
                                 "        /*0040*/                   STS [R3+0x400], R0 ;\n"
                                 "        /*0050*/                   EXIT ;\n"),
                         "wait.sass");
  const KernelRun r = run(p);
  EXPECT_TRUE(r.stopped.empty()) << r.stopped;
  ASSERT_EQ(r.sites.size(), 1u);
  EXPECT_TRUE(r.sites[0].counts_known) << r.sites[0].unknown;
  EXPECT_EQ(r.sites[0].executed, 1);
  ASSERT_EQ(r.not_counted.size(), 1u);
  EXPECT_NE(r.not_counted[0].why.find("an mbarrier operation"), std::string::npos) << r.not_counted[0].why;
}

// CALL.REL to a subroutine of the function's own code runs it in the same registers and RET.REL
// returns past the call (twice here: the store after each call sees what the subroutine wrote);
// a local load's .LU (last use) reads back what STL stored.
TEST(SassCall, RelativeSubroutinesRunAndReturn) {
  Program p = parse_sass(listing("        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
                                 "        /*0010*/                   S2R R0, SR_TID.X ;\n"
                                 "        /*0020*/                   MOV R4, 0x1 ;\n"
                                 "        /*0030*/                   CALL.REL.NOINC 0xb0 ;\n"
                                 "        /*0040*/                   STS [R3+0x400], R0 ;\n"
                                 "        /*0050*/                   MOV R4, 0x2 ;\n"
                                 "        /*0060*/                   CALL.REL.NOINC 0xb0 ;\n"
                                 "        /*0070*/                   STL [R1+0x8], R3 ;\n"
                                 "        /*0080*/                   LDL.LU R5, [R1+0x8] ;\n"
                                 "        /*0090*/                   STS [R5+0x800], R0 ;\n"
                                 "        /*00a0*/                   EXIT ;\n"
                                 "        /*00b0*/                   IMAD R3, R0, R4, RZ ;\n"
                                 "        /*00c0*/                   IMAD.SHL.U32 R3, R3, 0x4, RZ ;\n"
                                 "        /*00d0*/                   RET.REL.NODEC R20 0x0 ;\n"),
                         "call.sass");
  const KernelRun r = run(p);
  EXPECT_TRUE(r.stopped.empty()) << r.stopped;
  ASSERT_EQ(r.sites.size(), 2u);
  ASSERT_TRUE(r.sites[0].counts_known) << r.sites[0].unknown;
  ASSERT_TRUE(r.sites[1].counts_known) << r.sites[1].unknown;
  for (int k = 0; k < kWarpLanes; ++k) {
    EXPECT_EQ(r.sites[0].trace.instructions.at(0).addr[static_cast<std::size_t>(k)], 0x400 + 4 * k) << "lane " << k;
    EXPECT_EQ(r.sites[1].trace.instructions.at(0).addr[static_cast<std::size_t>(k)], 0x800 + 8 * k) << "lane " << k;
  }
}

}  // namespace
}  // namespace layoutproof::compiled

namespace layoutproof::compiled {
namespace {

// LEA.HI d, a, b, RZ, s is (a >> (32 - s)) + b: per lane where a is known, and a derived symbol
// of the free parameter (not unknown) where a is it: ptxas's (n >> 1) - 1.
TEST(SassLea, HighWordOfAShiftWithRzIsAShift) {
  const std::string body =
      "        /*0000*/                   S2R R0, SR_TID.X ;\n"
      "        /*0010*/                   IMAD R2, R0, 0x40000000, RZ ;\n"
      "        /*0020*/                   LEA.HI R3, R2, 0x100, RZ, 0x4 ;\n"
      "        /*0030*/                   LDC R4, c[0x0][0x210] ;\n"
      "        /*0040*/                   LEA.HI R5, R4, 0xffffffff, RZ, 0x1f ;\n"
      "        /*0050*/                   IMAD R6, R5, 0x4, R3 ;\n"
      "        /*0060*/                   STS [R6+0x400], R0 ;\n"
      "        /*0070*/                   EXIT ;\n";
  for (const u32 n : {2u, 64u, 1000u}) {
    Program p = parse_sass(listing(body), "lea.sass");
    decode_with_callees(p, 0);
    Launch l;
    l.block = {32, 1, 1};
    l.params.assign(p.functions[0].params.size(), std::nullopt);
    l.fields = {{0, 0, 4, n}};
    const KernelRun r = run_kernel(p, 0, l);
    ASSERT_TRUE(r.sites.at(0).counts_known) << r.sites[0].unknown << r.sites[0].invalid << r.stopped;
    for (int k = 0; k < kWarpLanes; ++k) {
      const u32 hi = static_cast<u32>((static_cast<u64>(static_cast<u32>(k) * 0x40000000u) << 4) >> 32) + 0x100;  // 4k + 0x100
      EXPECT_EQ(r.sites[0].trace.instructions.at(0).addr[static_cast<std::size_t>(k)], 0x400 + static_cast<u32>(4 * ((n >> 1) - 1) + hi)) << k;
    }
  }
  Program p = parse_sass(listing(body), "lea.sass");
  decode_with_callees(p, 0);
  Launch l;
  l.block = {32, 1, 1};
  l.params.assign(p.functions[0].params.size(), std::nullopt);
  const KernelRun r = run_kernel(p, 0, l);
  ASSERT_FALSE(r.sites.at(0).symbolic.empty()) << r.sites[0].unknown;
  const bool derived = std::any_of(r.symbols.begin(), r.symbols.end(), [](const Symbol& s) { return s.kind == Symbol::Kind::derived; });
  EXPECT_TRUE(derived);
}

}  // namespace
}  // namespace layoutproof::compiled

namespace layoutproof::compiled {
namespace {

// Warp votes and bit counts as warp-aggregated atomics and cooperative groups elect a leader: with
// lanes 4-31 running (0-3 exited), VOTEU.ANY's ballot is 0xfffffff0, UFLO of it 31 (the leader, by
// ISETP.EQ against the lane), BREV then FLO.U32.SH the lowest lane (4), POPC 28; VOTE.ANY of
// tid < 16 gives 0x0000fff0 (POPC 12) and its predicate true, VOTE.ALL of it false.
TEST(SassBits, VotesAndBitCountsElectTheLanesTheGpuDoes) {
  Program p = parse_sass(listing("        /*0000*/                   S2R R0, SR_TID.X ;\n"
                                 "        /*0010*/                   ISETP.GE.U32.AND P1, PT, R0, 0x4, PT ;\n"
                                 "        /*0020*/              @!P1 EXIT ;\n"
                                 "        /*0030*/                   VOTEU.ANY UR4, UPT, PT ;\n"
                                 "        /*0040*/                   UFLO.U32 UR5, UR4 ;\n"
                                 "        /*0050*/                   ISETP.EQ.U32.AND P0, PT, R0, UR5, PT ;\n"
                                 "        /*0060*/               @P0 STS [RZ+0x400], R0 ;\n"
                                 "        /*0070*/                   MOV R4, UR4 ;\n"
                                 "        /*0080*/                   BREV R6, R4 ;\n"
                                 "        /*0090*/                   FLO.U32.SH R7, R6 ;\n"
                                 "        /*00a0*/                   IMAD.SHL.U32 R7, R7, 0x4, RZ ;\n"
                                 "        /*00b0*/                   STS [R7+0x800], R0 ;\n"
                                 "        /*00c0*/                   POPC R8, R4 ;\n"
                                 "        /*00d0*/                   IMAD.SHL.U32 R8, R8, 0x4, RZ ;\n"
                                 "        /*00e0*/                   STS [R8+0x1000], R0 ;\n"
                                 "        /*00f0*/                   ISETP.LT.U32.AND P3, PT, R0, 0x10, PT ;\n"
                                 "        /*0100*/                   VOTE.ANY R10, P2, P3 ;\n"
                                 "        /*0110*/                   VOTE.ALL R11, P4, P3 ;\n"
                                 "        /*0120*/                   POPC R12, R10 ;\n"
                                 "        /*0130*/                   IMAD.SHL.U32 R12, R12, 0x4, RZ ;\n"
                                 "        /*0140*/               @P2 STS [R12+0x1800], R0 ;\n"
                                 "        /*0150*/               @P4 STS [R12+0x2000], R0 ;\n"
                                 "        /*0160*/                   FLO.U32 R13, RZ ;\n"
                                 "        /*0170*/                   LOP3.LUT R13, R13, 0xfc, RZ, 0xc0, !PT ;\n"
                                 "        /*0180*/                   STS [R13+0x2800], R0 ;\n"
                                 "        /*0190*/                   EXIT ;\n"),
                         "vote.sass");
  const KernelRun r = run(p);
  ASSERT_EQ(r.sites.size(), 6u);
  for (const Site& s : r.sites) ASSERT_TRUE(s.counts_known) << s.unknown;
  const auto lanes = [&](std::size_t site) { return r.sites[site].trace.instructions.at(0).addr; };
  for (int k = 0; k < kWarpLanes; ++k) {
    const std::size_t s = static_cast<std::size_t>(k);
    EXPECT_EQ(lanes(0)[s], k == 31 ? 0x400 : -1) << "the leader, lane " << k;
    EXPECT_EQ(lanes(1)[s], k >= 4 ? 0x800 + 16 : -1) << "the lowest lane, lane " << k;
    EXPECT_EQ(lanes(2)[s], k >= 4 ? 0x1000 + 4 * 28 : -1) << "popc, lane " << k;
    EXPECT_EQ(lanes(3)[s], k >= 4 ? 0x1800 + 4 * 12 : -1) << "vote.any, lane " << k;
    EXPECT_EQ(lanes(5)[s], k >= 4 ? 0x2800 + 0xfc : -1) << "flo of 0, lane " << k;
  }
  EXPECT_EQ(r.sites[4].trace.instructions.size(), 0u) << "vote.all of tid < 16 is false: no lane stores";
}

}  // namespace
}  // namespace layoutproof::compiled

namespace layoutproof::compiled {
namespace {

// R2UR Pd, URd, Ra in the loop ptxas writes to make a value uniform (as cuda::pipeline's mbarrier
// code does): each round serves the lanes whose Ra equals the uniform value and loops (@P1 BRA.U.ANY)
// while any lane is left, so every lane ends with its own value: with 4 distinct values (tid & 3)
// the loop runs 4 rounds and lane k stores at 0x400 + 4 (k & 3).
TEST(SassR2ur, TheUniformLoopServesEveryLaneItsOwnValue) {
  Program p = parse_sass(listing("        /*0000*/                   S2R R0, SR_TID.X ;\n"
                                 "        /*0010*/                   LOP3.LUT R0, R0, 0x3, RZ, 0xc0, !PT ;\n"
                                 "        /*0020*/                   PLOP3.LUT P1, PT, PT, PT, PT, 0x80, 0x0 ;\n"
                                 "        /*0030*/                   PLOP3.LUT P0, PT, P0, P1, PT, 0xa2, 0x0 ;\n"
                                 "        /*0040*/               @P1 R2UR P0, UR4, R0 ;\n"
                                 "        /*0050*/               @P1 PLOP3.LUT P1, PT, P0, PT, PT, 0x80, 0x0 ;\n"
                                 "        /*0060*/              @!P0 IMAD.U32 R10, RZ, RZ, UR4 ;\n"
                                 "        /*0070*/                   PLOP3.LUT P0, PT, PT, PT, PT, 0x80, 0x0 ;\n"
                                 "        /*0080*/                   STS [RZ+0x800], R0 ;\n"
                                 "        /*0090*/               @P1 BRA.U.ANY 0x30 ;\n"
                                 "        /*00a0*/                   IMAD.SHL.U32 R11, R10, 0x4, RZ ;\n"
                                 "        /*00b0*/                   STS [R11+0x400], R0 ;\n"
                                 "        /*00c0*/                   EXIT ;\n"),
                         "r2ur.sass");
  const KernelRun r = run(p);
  ASSERT_EQ(r.sites.size(), 2u);
  for (const Site& s : r.sites) ASSERT_TRUE(s.counts_known) << s.unknown;
  EXPECT_EQ(r.sites[0].executed, 4) << "one round per distinct value";
  ASSERT_EQ(r.sites[1].trace.instructions.size(), 1u);
  for (int k = 0; k < kWarpLanes; ++k) EXPECT_EQ(r.sites[1].trace.instructions[0].addr[static_cast<std::size_t>(k)], 0x400 + 4 * (k & 3)) << "lane " << k;
}

}  // namespace
}  // namespace layoutproof::compiled

namespace layoutproof::compiled {
namespace {

// MATCH.ANY groups the lanes holding one value (tid & 3: lanes k, k+4, ...: 0x11111111 << (k & 3));
// BREV then FLO.U32.SH of the group is its lowest lane, the one that stores at 0x400 + 4 (k & 3).
// MATCH.ANY.U64 compares the pair (lo, hi): tid >> 4 with a common high word, two groups of 16.
TEST(SassMatch, GroupsTheLanesHoldingOneValue) {
  Program p = parse_sass(listing("        /*0000*/                   S2R R0, SR_TID.X ;\n"
                                 "        /*0010*/                   LOP3.LUT R4, R0, 0x3, RZ, 0xc0, !PT ;\n"
                                 "        /*0020*/                   MATCH.ANY R1, R4 ;\n"
                                 "        /*0030*/                   BREV R2, R1 ;\n"
                                 "        /*0040*/                   FLO.U32.SH R2, R2 ;\n"
                                 "        /*0050*/                   ISETP.NE.AND P0, PT, R0, R2, PT ;\n"
                                 "        /*0060*/                   IMAD.SHL.U32 R5, R4, 0x4, RZ ;\n"
                                 "        /*0070*/              @!P0 STS [R5+0x400], R1 ;\n"
                                 "        /*0080*/                   SHF.R.U32.HI R6, RZ, 0x4, R0 ;\n"
                                 "        /*0090*/                   MOV R7, 0x7 ;\n"
                                 "        /*00a0*/                   MATCH.ANY.U64 R8, R6 ;\n"
                                 "        /*00b0*/                   POPC R9, R8 ;\n"
                                 "        /*00c0*/                   FLO.U32 R10, R8 ;\n"
                                 "        /*00d0*/                   IMAD R11, R9, 0x40, R10 ;\n"
                                 "        /*00e0*/                   IMAD.SHL.U32 R11, R11, 0x4, RZ ;\n"
                                 "        /*00f0*/                   STS [R11+0x1000], R0 ;\n"
                                 "        /*0100*/                   EXIT ;\n"),
                         "match.sass");
  const KernelRun r = run(p);
  ASSERT_EQ(r.sites.size(), 2u);
  for (const Site& s : r.sites) ASSERT_TRUE(s.counts_known) << s.unknown;
  const auto& leaders = r.sites[0].trace.instructions.at(0).addr;
  const auto& pairs = r.sites[1].trace.instructions.at(0).addr;
  for (int k = 0; k < kWarpLanes; ++k) {
    EXPECT_EQ(leaders[static_cast<std::size_t>(k)], k < 4 ? 0x400 + 4 * k : -1) << "lane " << k;
    EXPECT_EQ(pairs[static_cast<std::size_t>(k)], 0x1000 + 4 * (16 * 64 + (k < 16 ? 15 : 31))) << "lane " << k;
  }
}

}  // namespace
}  // namespace layoutproof::compiled

namespace layoutproof::compiled {
namespace {

// BPT.TRAP (__trap(), an assert's end) ends the lane as EXIT does, and a launch that runs it has
// no counts: the hardware aborts it. Lanes 0-15 trap before their store; 16-31 store.
TEST(SassTrap, ATrapEndsTheLaneAndTheLaunchHasNoCounts) {
  Program p = parse_sass(listing("        /*0000*/                   S2R R0, SR_TID.X ;\n"
                                 "        /*0010*/                   ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;\n"
                                 "        /*0020*/              @!P0 BPT.TRAP 0x1 ;\n"
                                 "        /*0030*/                   IMAD.SHL.U32 R1, R0, 0x4, RZ ;\n"
                                 "        /*0040*/                   STS [R1+0x400], R0 ;\n"
                                 "        /*0050*/                   EXIT ;\n"),
                         "trap.sass");
  const KernelRun r = run(p);
  ASSERT_EQ(r.sites.size(), 1u);
  EXPECT_TRUE(r.stopped.empty()) << r.stopped;
  EXPECT_NE(r.trapped.find("BPT.TRAP"), std::string::npos) << r.trapped;
  ASSERT_EQ(r.sites[0].trace.instructions.size(), 1u);
  for (int k = 0; k < kWarpLanes; ++k) EXPECT_EQ(r.sites[0].trace.instructions[0].addr[static_cast<std::size_t>(k)] >= 0, k >= 16) << "lane " << k;
  EXPECT_NE(counts_unknown(r, r.sites[0]).find("the launch traps"), std::string::npos);
  EXPECT_NE(totals_unknown(r).find("the launch traps"), std::string::npos);
}

}  // namespace
}  // namespace layoutproof::compiled
